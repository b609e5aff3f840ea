// Running reward-std normalisation against a direct two-pass computation.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "hydra/ppo/reward_norm.hpp"

namespace {

using hydra::ppo::RewardNormalizer;

TEST(RewardNorm, MatchesDirectComputationAcrossRollouts) {
  const double gamma = 0.9;
  // Rollout 1: episodes [1, 0, 2] and [-1]; rollout 2: episode [0.5, 0.5].
  const std::vector<float> r1 = {1.0f, 0.0f, 2.0f, -1.0f};
  const std::vector<std::uint8_t> d1 = {0, 0, 1, 1};
  const std::vector<float> r2 = {0.5f, 0.5f};
  const std::vector<std::uint8_t> d2 = {0, 1};
  // Discounted returns by hand: 1 + 0.9 * (0 + 0.9 * 2) = 2.62, 0 + 0.9 * 2 = 1.8, 2, -1;
  // 0.5 + 0.9 * 0.5 = 0.95, 0.5.
  const std::vector<double> g = {2.62, 1.8, 2.0, -1.0, 0.95, 0.5};
  double mean = 0;
  for (const double x : g) mean += x;
  mean /= static_cast<double>(g.size());
  double var = 0;
  for (const double x : g) var += (x - mean) * (x - mean);
  var /= static_cast<double>(g.size());

  RewardNormalizer norm(gamma);
  EXPECT_DOUBLE_EQ(norm.stddev(), 1.0);  // nothing seen yet: rewards pass unchanged
  norm.observe(r1, d1);
  norm.observe(r2, d2);
  EXPECT_EQ(norm.count(), 6);
  EXPECT_NEAR(norm.mean(), mean, 1e-7);
  EXPECT_NEAR(norm.stddev(), std::sqrt(var), 1e-7);

  std::vector<float> scaled = r1;
  norm.normalize(scaled);
  for (std::size_t i = 0; i < r1.size(); ++i) EXPECT_NEAR(scaled[i], r1[i] / std::sqrt(var), 1e-6);
}

TEST(RewardNorm, JsonRoundTripKeepsTheMoments) {
  RewardNormalizer norm(1.0);
  const std::vector<float> r = {0.3f, -2.0f, 1.5f};
  const std::vector<std::uint8_t> d = {1, 0, 1};
  norm.observe(r, d);
  const auto back = RewardNormalizer::from_json(nlohmann::json::parse(norm.to_json().dump()));
  EXPECT_EQ(back.count(), norm.count());
  EXPECT_DOUBLE_EQ(back.mean(), norm.mean());
  EXPECT_DOUBLE_EQ(back.stddev(), norm.stddev());
  EXPECT_ANY_THROW(RewardNormalizer::from_json(nlohmann::json::object()));
}

}  // namespace
