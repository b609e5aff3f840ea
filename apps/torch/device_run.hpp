#pragma once

// The LibTorch side of ModelFlags (model_flags.hpp) and the inputs `hydra check` and the device
// benches feed the network.

#include <cstdint>
#include <memory>

#include <torch/torch.h>

#include "hydra/data/dataset.hpp"
#include "model_flags.hpp"

namespace hydra::apps {

// The device --device names; "cuda" without a CUDA device is one hydra::Error line.
torch::Device resolve_device(const ModelFlags& flags);

// Applies --threads to torch's intra-op pool and oneTBB's workers for the life of the returned
// object (nothing when 0).
std::shared_ptr<void> limit_threads(const ModelFlags& flags);

// Positions as the network's inputs, on the CPU: obs [N,85,34], context [N,16] float; legal
// [N,46] bool.
struct PositionTensors {
  torch::Tensor obs, context, legal;
  std::int64_t size() const { return obs.size(0); }
};
PositionTensors position_tensors(const data::SampleBatch& samples);

// The legal mask of sample row i as the actors hold it (bit a = action a).
std::uint64_t legal_bits(const data::SampleBatch& samples, std::size_t i);

}  // namespace hydra::apps
