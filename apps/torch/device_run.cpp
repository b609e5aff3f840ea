#include "device_run.hpp"

#include "hydra/encoder/layout.hpp"
#include "hydra/selfplay/torch/inference.hpp"

namespace hydra::apps {

PositionTensors position_tensors(const data::SampleBatch& s) {
  const auto n = static_cast<std::int64_t>(s.size());
  PositionTensors t;
  t.obs = torch::from_blob(const_cast<float*>(s.obs.data()), {n, encoder::kChannels, encoder::kTiles}, torch::kFloat).clone();
  t.context = torch::from_blob(const_cast<float*>(s.context.data()), {n, data::kSampleContext}, torch::kFloat).clone();
  t.legal = torch::from_blob(const_cast<std::uint8_t*>(s.legal.data()), {n, data::kSampleActions}, torch::kUInt8)
                .to(torch::kBool);
  return t;
}

}  // namespace hydra::apps
