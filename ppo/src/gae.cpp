#include "hydra/ppo/gae.hpp"

#include <cstddef>

#include "hydra/common/error.hpp"

namespace hydra::ppo {

void compute_gae(std::span<const float> reward, std::span<const float> value,
                 std::span<const std::uint8_t> done, double gamma, double lambda,
                 std::span<float> advantage, std::span<float> returns) {
  const std::size_t n = reward.size();
  HYDRA_CHECK(value.size() == n && done.size() == n && advantage.size() == n && returns.size() == n,
              "compute_gae: spans of different lengths");
  HYDRA_CHECK(n == 0 || done[n - 1] != 0, "compute_gae: the last decision does not end an episode");
  double next_value = 0;
  double next_adv = 0;
  for (std::size_t k = n; k-- > 0;) {
    const double keep = done[k] != 0 ? 0.0 : 1.0;
    const double v = value[k];
    const double delta = static_cast<double>(reward[k]) + gamma * next_value * keep - v;
    const double adv = delta + gamma * lambda * keep * next_adv;
    advantage[k] = static_cast<float>(adv);
    returns[k] = static_cast<float>(adv + v);
    next_value = v;
    next_adv = adv;
  }
}

double explained_variance(std::span<const float> prediction, std::span<const float> target) {
  HYDRA_CHECK(prediction.size() == target.size(), "explained_variance: spans of different lengths");
  const std::size_t n = target.size();
  if (n == 0) return 0;
  double mean_t = 0, mean_r = 0;
  for (std::size_t i = 0; i < n; ++i) {
    mean_t += target[i];
    mean_r += static_cast<double>(target[i]) - prediction[i];
  }
  mean_t /= static_cast<double>(n);
  mean_r /= static_cast<double>(n);
  double var_t = 0, var_r = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double dt = target[i] - mean_t;
    const double dr = static_cast<double>(target[i]) - prediction[i] - mean_r;
    var_t += dt * dt;
    var_r += dr * dr;
  }
  if (var_t <= 0) return 0;
  return 1.0 - var_r / var_t;
}

}  // namespace hydra::ppo
