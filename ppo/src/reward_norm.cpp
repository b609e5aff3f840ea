#include "hydra/ppo/reward_norm.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "hydra/common/error.hpp"

namespace hydra::ppo {

RewardNormalizer::RewardNormalizer(double gamma, double epsilon) : gamma_(gamma), epsilon_(epsilon) {
  HYDRA_CHECK(gamma >= 0 && gamma <= 1, "reward normaliser: gamma outside [0, 1]");
  HYDRA_CHECK(epsilon > 0, "reward normaliser: epsilon must be positive");
}

void RewardNormalizer::observe(std::span<const float> reward, std::span<const std::uint8_t> done) {
  HYDRA_CHECK(reward.size() == done.size(), "reward normaliser: reward and done of different lengths");
  // Returns are computed backwards (G needs the future) but fed to Welford forwards, so the
  // moments do not depend on the direction and match a direct two-pass computation.
  const std::size_t n = reward.size();
  std::vector<double> g(n);
  double next = 0;
  for (std::size_t k = n; k-- > 0;) {
    if (done[k] != 0) next = 0;
    next = reward[k] + gamma_ * next;
    g[k] = next;
  }
  for (const double x : g) {
    ++count_;
    const double d = x - mean_;
    mean_ += d / static_cast<double>(count_);
    m2_ += d * (x - mean_);
  }
}

double RewardNormalizer::stddev() const {
  if (count_ < 2) return 1.0;
  return std::sqrt(std::max(m2_ / static_cast<double>(count_), epsilon_));
}

void RewardNormalizer::normalize(std::span<float> reward) const {
  const double s = stddev();
  for (float& r : reward) r = static_cast<float>(r / s);
}

nlohmann::ordered_json RewardNormalizer::to_json() const {
  nlohmann::ordered_json j;
  j["gamma"] = gamma_;
  j["epsilon"] = epsilon_;
  j["count"] = count_;
  j["mean"] = mean_;
  j["m2"] = m2_;
  return j;
}

RewardNormalizer RewardNormalizer::from_json(const nlohmann::json& j) {
  const auto field = [&](const char* key) -> const nlohmann::json& {
    if (!j.is_object() || !j.contains(key) || !j.at(key).is_number())
      throw Error(std::string("reward normaliser state: missing or non-numeric field '") + key + "'");
    return j.at(key);
  };
  RewardNormalizer r(field("gamma").get<double>(), field("epsilon").get<double>());
  r.count_ = field("count").get<std::int64_t>();
  r.mean_ = field("mean").get<double>();
  r.m2_ = field("m2").get<double>();
  if (r.count_ < 0 || r.m2_ < 0) throw Error("reward normaliser state: negative count or m2");
  return r;
}

}  // namespace hydra::ppo
