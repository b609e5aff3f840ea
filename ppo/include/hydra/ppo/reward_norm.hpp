#pragma once

// Running reward-std normalisation (docs/PPO.md): rewards are divided by the standard
// deviation of the discounted return, tracked over every rollout seen so far with Welford's
// algorithm. The return restarts at each episode (a kyoku) and rollouts hold whole episodes, so
// no partial return carries from one rollout to the next; the state is just the moments.

#include <cstdint>
#include <span>

#include <nlohmann/json.hpp>

namespace hydra::ppo {

class RewardNormalizer {
 public:
  explicit RewardNormalizer(double gamma = 1.0, double epsilon = 1e-8);

  // Adds the discounted return G_i = reward_i + gamma * G_{i+1} (G = 0 after done) of every
  // decision of one rollout to the running moments. Spans as compute_gae's.
  void observe(std::span<const float> reward, std::span<const std::uint8_t> done);

  // sqrt of the population variance of every return observed; 1 before two returns were seen
  // (nothing to scale by yet) and never below sqrt(epsilon).
  double stddev() const;
  // reward[i] /= stddev().
  void normalize(std::span<float> reward) const;

  std::int64_t count() const { return count_; }
  double mean() const { return mean_; }

  // Checkpoint form {"gamma", "epsilon", "count", "mean", "m2"}; from_json throws hydra::Error
  // naming the missing or mistyped field.
  nlohmann::ordered_json to_json() const;
  static RewardNormalizer from_json(const nlohmann::json& j);

 private:
  double gamma_;
  double epsilon_;
  std::int64_t count_ = 0;
  double mean_ = 0;
  double m2_ = 0;  // sum of squared deviations from the mean
};

}  // namespace hydra::ppo
