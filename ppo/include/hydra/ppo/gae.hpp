#pragma once

// Generalised advantage estimation (Schulman et al. 2016) over a rollout of whole episodes.

#include <cstdint>
#include <span>

namespace hydra::ppo {

// Episodes lie contiguously in decision order; done[i] = 1 marks each episode's last decision,
// after which the bootstrap value is 0 (a kyoku ends the episode, docs/PPO.md). With
//   delta_i = reward_i + gamma * V_{i+1} * (1 - done_i) - V_i
//   A_i     = delta_i + gamma * lambda * (1 - done_i) * A_{i+1}
//   R_i     = A_i + V_i   (the value target)
// computed backwards in double. Every span has the same length; the last entry must be done
// (a rollout never cuts an episode); advantage and returns may not alias the inputs.
void compute_gae(std::span<const float> reward, std::span<const float> value,
                 std::span<const std::uint8_t> done, double gamma, double lambda,
                 std::span<float> advantage, std::span<float> returns);

// 1 - Var(target - prediction) / Var(target): 1 for a perfect value function, 0 for one that
// predicts the mean, negative when worse. 0 when the targets have no variance.
double explained_variance(std::span<const float> prediction, std::span<const float> target);

}  // namespace hydra::ppo
