#pragma once

// The LibTorch side of ModelFlags (model_flags.hpp) and the inputs `hydra check` and the device
// benches feed the network.

#include <cstdint>
#include <memory>

#include <torch/torch.h>

#include "hydra/data/dataset.hpp"
#include "model_flags.hpp"

namespace hydra::apps {

// Positions as the network's inputs, on the CPU: obs [N,85,34], context [N,16] float; legal
// [N,46] bool.
struct PositionTensors {
  torch::Tensor obs, context, legal;
  std::int64_t size() const { return obs.size(0); }
};
PositionTensors position_tensors(const data::SampleBatch& samples);

}  // namespace hydra::apps
