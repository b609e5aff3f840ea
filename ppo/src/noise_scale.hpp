#pragma once

// The gradient noise scale of an update (ppo.noise_batch; docs/PPO.md "Gradient noise scale").

#include <cstdint>
#include <vector>

#include <torch/torch.h>

#include "hydra/model/network.hpp"
#include "hydra/ppo/batch.hpp"
#include "hydra/ppo/update_stats.hpp"

namespace hydra::ppo {

struct NoiseSettings {
  std::int64_t noise_batch = 0;  // decisions per chunk, at least
  double adv_clip = 5;           // of the sampled form's normalised advantages
  double clip = 0.1;             // the expected form's surrogate clip (every ratio is 1: unused)
  double temperature = 1;        // the policy the actors sample
  bool autocast = false;
  torch::Device device = torch::kCPU;
};

// Fills grad_signal and grad_noise of `stats`: the policy-gradient term of the loss at the
// current weights of `net` (ratio 1, advantages normalised over the whole rollout, or the
// expected form's action advantages when `data` has them), its gradient on chunks of whole games
// (`games`: the rollout's game index per decision; consecutive chunks of noise_batch when empty)
// of at least noise_batch decisions, and on two halves of alternate chunks, without touching .grad
// or stepping. Leaves `stats` alone when the rollout gives fewer than two chunks.
void measure_gradient_noise(model::HydraNetImpl& net, const RolloutTensors& data, const std::vector<std::int64_t>& games,
                            const NoiseSettings& settings, UpdateStats& stats);

}  // namespace hydra::ppo
