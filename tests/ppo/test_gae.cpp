// GAE against values worked out by hand on a two-episode rollout.

#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "hydra/ppo/gae.hpp"

namespace {

using hydra::ppo::compute_gae;

// Episode 1 = decisions 0..2 (reward 1 at its end), episode 2 = decisions 3..4.
constexpr std::array<float, 5> kReward = {0.0f, 0.0f, 1.0f, 0.5f, -1.0f};
constexpr std::array<float, 5> kValue = {0.2f, 0.4f, 0.6f, 0.1f, -0.3f};
constexpr std::array<std::uint8_t, 5> kDone = {0, 0, 1, 0, 1};

struct Result {
  std::array<float, 5> adv{}, ret{};
};

Result run(double gamma, double lambda) {
  Result r;
  compute_gae(kReward, kValue, kDone, gamma, lambda, r.adv, r.ret);
  return r;
}

constexpr double kTol = 1e-6;

TEST(Gae, GammaOneLambdaOneIsReturnMinusValue) {
  // lambda = 1, gamma = 1: A_i = (sum of the episode's rewards from i on) - V_i.
  // Episode 1 returns 1, 1, 1; episode 2: 0.5 - 1 = -0.5, then -1. Nothing leaks across done.
  const auto r = run(1.0, 1.0);
  const std::array<double, 5> adv = {0.8, 0.6, 0.4, -0.6, -0.7};
  const std::array<double, 5> ret = {1.0, 1.0, 1.0, -0.5, -1.0};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_NEAR(r.adv[i], adv[i], kTol) << i;
    EXPECT_NEAR(r.ret[i], ret[i], kTol) << i;
  }
}

TEST(Gae, GammaOneLambda095) {
  // delta_2 = 1 - 0.6 = 0.4                    A_2 = 0.4
  // delta_1 = 0 + 0.6 - 0.4 = 0.2              A_1 = 0.2 + 0.95 * 0.4 = 0.58
  // delta_0 = 0 + 0.4 - 0.2 = 0.2              A_0 = 0.2 + 0.95 * 0.58 = 0.751
  // delta_4 = -1 - (-0.3) = -0.7 (done: no bootstrap)             A_4 = -0.7
  // delta_3 = 0.5 + (-0.3) - 0.1 = 0.1         A_3 = 0.1 + 0.95 * (-0.7) = -0.565
  // returns R = A + V: 0.951, 0.98, 1.0, -0.465, -1.0
  const auto r = run(1.0, 0.95);
  const std::array<double, 5> adv = {0.751, 0.58, 0.4, -0.565, -0.7};
  const std::array<double, 5> ret = {0.951, 0.98, 1.0, -0.465, -1.0};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_NEAR(r.adv[i], adv[i], kTol) << i;
    EXPECT_NEAR(r.ret[i], ret[i], kTol) << i;
  }
}

TEST(Gae, GammaPoint9Lambda095) {
  // gamma * lambda = 0.855.
  // delta_2 = 1 - 0.6 = 0.4                        A_2 = 0.4
  // delta_1 = 0.9 * 0.6 - 0.4 = 0.14               A_1 = 0.14 + 0.855 * 0.4 = 0.482
  // delta_0 = 0.9 * 0.4 - 0.2 = 0.16               A_0 = 0.16 + 0.855 * 0.482 = 0.57211
  // delta_4 = -0.7                                 A_4 = -0.7
  // delta_3 = 0.5 + 0.9 * (-0.3) - 0.1 = 0.13      A_3 = 0.13 + 0.855 * (-0.7) = -0.4685
  const auto r = run(0.9, 0.95);
  const std::array<double, 5> adv = {0.57211, 0.482, 0.4, -0.4685, -0.7};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_NEAR(r.adv[i], adv[i], kTol) << i;
    EXPECT_NEAR(r.ret[i], adv[i] + kValue[i], kTol) << i;
  }
}

TEST(Gae, GammaPoint9LambdaOneIsDiscountedReturnMinusValue) {
  // Discounted returns: episode 1: 0.81, 0.9, 1; episode 2: 0.5 + 0.9 * (-1) = -0.4, -1.
  const auto r = run(0.9, 1.0);
  const std::array<double, 5> ret = {0.81, 0.9, 1.0, -0.4, -1.0};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_NEAR(r.ret[i], ret[i], kTol) << i;
    EXPECT_NEAR(r.adv[i], ret[i] - kValue[i], kTol) << i;
  }
}

TEST(Gae, LambdaZeroIsOneStepTd) {
  // lambda = 0: A_i = delta_i; for decision 1 with gamma 1: 0 + 0.6 - 0.4 = 0.2.
  const auto r = run(1.0, 0.0);
  EXPECT_NEAR(r.adv[1], 0.2, kTol);
  EXPECT_NEAR(r.adv[3], 0.1, kTol);
}

TEST(Gae, RejectsARolloutThatCutsAnEpisode) {
  const std::array<float, 2> reward{}, value{};
  const std::array<std::uint8_t, 2> done = {1, 0};
  std::array<float, 2> adv{}, ret{};
  EXPECT_ANY_THROW(compute_gae(reward, value, done, 1.0, 0.95, adv, ret));
}

TEST(Gae, ExplainedVariance) {
  const std::array<float, 4> target = {1.0f, 2.0f, 3.0f, 4.0f};
  EXPECT_DOUBLE_EQ(hydra::ppo::explained_variance(target, target), 1.0);
  const std::array<float, 4> mean = {2.5f, 2.5f, 2.5f, 2.5f};
  EXPECT_DOUBLE_EQ(hydra::ppo::explained_variance(mean, target), 0.0);
  // Residuals 1, 0, 0, -1 around mean 0: variance 0.5; target variance 1.25 -> 1 - 0.4 = 0.6.
  const std::array<float, 4> pred = {0.0f, 2.0f, 3.0f, 5.0f};
  EXPECT_NEAR(hydra::ppo::explained_variance(pred, target), 0.6, 1e-12);
}

}  // namespace
