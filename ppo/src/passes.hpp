#pragma once

// The learner's passes over a rollout's tensors, shared by the learner and its estimators.

#include <cstdint>
#include <string_view>

#include <torch/torch.h>

#include "hydra/game/seed.hpp"
#include "hydra/model/network.hpp"
#include "hydra/ppo/batch.hpp"
#include "hydra/ppo/loss.hpp"

namespace hydra::ppo {

// The policy network's outputs on rows `b` (autocast as in training), as float.
model::Outputs forward(model::HydraNetImpl& net, const RolloutTensors& b, torch::DeviceType device, bool autocast);

// The loss inputs of a minibatch: the network's outputs on it and the stored targets.
LossInput loss_input(model::HydraNetImpl& net, const RolloutTensors& b, torch::DeviceType device, bool autocast);

// A Fisher-Yates permutation of 0..n-1 from xoshiro256** keyed by stream_key(master, label,
// {update, epoch}), as an int64 tensor on `device`: the visiting order of one epoch.
torch::Tensor epoch_order(game::MasterSeed master, std::string_view label, std::int64_t update, std::int64_t epoch,
                          std::int64_t n, const torch::Device& device);

}  // namespace hydra::ppo
