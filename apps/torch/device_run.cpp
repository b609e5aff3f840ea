#include "device_run.hpp"

#include <ATen/Parallel.h>
#include <oneapi/tbb/global_control.h>

#include "hydra/encoder/layout.hpp"
#include "hydra/selfplay/torch/inference.hpp"
#include "hydra/model/runtime.hpp"

namespace hydra::apps {

torch::Device resolve_device(const ModelFlags& flags) { return torch::Device(model::resolve_device(flags.device)); }

std::shared_ptr<void> limit_threads(const ModelFlags& flags) {
  if (flags.threads <= 0) return nullptr;
  at::set_num_threads(flags.threads);
  return std::make_shared<oneapi::tbb::global_control>(oneapi::tbb::global_control::max_allowed_parallelism,
                                                       static_cast<std::size_t>(flags.threads));
}

PositionTensors position_tensors(const data::SampleBatch& s) {
  const auto n = static_cast<std::int64_t>(s.size());
  PositionTensors t;
  t.obs = torch::from_blob(const_cast<float*>(s.obs.data()), {n, encoder::kChannels, encoder::kTiles}, torch::kFloat).clone();
  t.context = torch::from_blob(const_cast<float*>(s.context.data()), {n, data::kSampleContext}, torch::kFloat).clone();
  t.legal = torch::from_blob(const_cast<std::uint8_t*>(s.legal.data()), {n, data::kSampleActions}, torch::kUInt8)
                .to(torch::kBool);
  return t;
}

std::uint64_t legal_bits(const data::SampleBatch& s, std::size_t i) {
  std::uint64_t bits = 0;
  for (int a = 0; a < data::kSampleActions; ++a)
    if (s.legal[i * data::kSampleActions + static_cast<std::size_t>(a)] != 0) bits |= std::uint64_t{1} << a;
  return bits;
}

}  // namespace hydra::apps
