// Losses against hand-computed values and the masking invariants.

#include <gtest/gtest.h>

#include <cmath>

#include "hydra/model/losses.hpp"
#include "model_fixtures.hpp"

namespace hydra::model {
namespace {

torch::Tensor one_legal_mask(int action) {
  auto legal = torch::zeros({1, kActions}, torch::kBool);
  legal[0][action] = true;
  return legal;
}

TEST(Losses, MaskedSoftmaxZeroesIllegalExactly) {
  torch::manual_seed(2);
  const auto logits = torch::randn({8, kActions}) * 10;
  const auto legal = torch::rand({8, kActions}) < 0.3;
  legal.select(1, 45).fill_(true);
  const auto p = masked_softmax(logits, legal);
  EXPECT_EQ(p.masked_select(legal.logical_not()).abs().max().item<float>(), 0.0f);
  EXPECT_TRUE(torch::allclose(p.sum(1), torch::ones({8}), 1e-6, 1e-6));
  // On legal entries it is the softmax of the legal logits alone.
  const auto row = logits[0].masked_select(legal[0]);
  EXPECT_TRUE(torch::allclose(p[0].masked_select(legal[0]), torch::softmax(row, 0), 1e-6, 1e-7));
}

TEST(Losses, OneLegalActionGivesProbabilityOneAndNoNaN) {
  for (auto dtype : {torch::kFloat, torch::kDouble, torch::kBFloat16}) {
    auto logits = (torch::randn({1, kActions}) * 50).to(dtype).requires_grad_();
    const auto legal = one_legal_mask(17);
    const auto p = masked_softmax(logits, legal);
    EXPECT_EQ(p[0][17].item<double>(), 1.0);
    EXPECT_EQ(p.sum().item<double>(), 1.0);
    const auto loss = policy_loss(logits, legal, torch::tensor({17}, torch::kLong));
    EXPECT_EQ(loss.item<double>(), 0.0);
    // Entropy-style sums stay finite: 0 * log 0 never appears because log p is finite.
    const auto entropy = -(p * masked_log_softmax(logits, legal)).sum();
    EXPECT_EQ(entropy.item<double>(), 0.0);
    (loss + entropy).backward();
    EXPECT_FALSE(logits.grad().isnan().any().item<bool>());
    EXPECT_EQ(logits.grad().abs().sum().item<double>(), 0.0);
  }
}

TEST(Losses, PolicyLossByHand) {
  // Legal {0, 1, 2} with logits {0, ln 2, ln 3}: p = {1/6, 2/6, 3/6}; target 1 -> -ln(1/3).
  auto logits = torch::full({1, kActions}, 5.0);
  logits[0][0] = 0.0;
  logits[0][1] = std::log(2.0);
  logits[0][2] = std::log(3.0);
  auto legal = torch::zeros({1, kActions}, torch::kBool);
  legal.slice(1, 0, 3).fill_(true);
  EXPECT_NEAR(policy_loss(logits, legal, torch::tensor({1}, torch::kLong)).item<double>(), std::log(3.0), 1e-6);
}

TEST(Losses, SoftPolicyTargetAndRowWeightsByHand) {
  // Logits {0, ln 2, ln 3} over legal {0, 1, 2}: p = {1/6, 2/6, 3/6}. Row 0's target {1/2, 1/2, 0}
  // gives (ln 6 + ln 3) / 2; row 1's one-hot on 2 gives ln 2. Weights {2, 0}: the mean over the
  // two rows of weight x term is row 0's term.
  auto logits = torch::full({2, kActions}, 5.0);
  for (int r = 0; r < 2; ++r) {
    logits[r][0] = 0.0;
    logits[r][1] = std::log(2.0);
    logits[r][2] = std::log(3.0);
  }
  Outputs out;
  out.policy = logits;
  Targets t;
  t.legal = torch::zeros({2, kActions}, torch::kBool);
  t.legal.slice(1, 0, 3).fill_(true);
  t.action = torch::tensor({0, 2}, torch::kLong);
  t.policy_target = torch::zeros({2, kActions});
  t.policy_target[0][0] = 0.5;
  t.policy_target[0][1] = 0.5;
  t.policy_target[1][2] = 1.0;
  const config::ModelConfig cfg;
  const double row0 = (std::log(6.0) + std::log(3.0)) / 2;
  EXPECT_NEAR(compute_losses(out, t, cfg).policy.item<double>(), (row0 + std::log(2.0)) / 2, 1e-6);
  t.policy_weight = torch::tensor({2.0f, 0.0f});
  EXPECT_NEAR(compute_losses(out, t, cfg).policy.item<double>(), row0, 1e-6);
  // Weights alone weigh the one-hot of the logged actions: row 0's -ln(1/6) twice, halved.
  t.policy_target = torch::Tensor();
  EXPECT_NEAR(compute_losses(out, t, cfg).policy.item<double>(), std::log(6.0), 1e-6);
}

TEST(Losses, ValueAndGrpByHand) {
  EXPECT_NEAR(value_loss(torch::tensor({{1.0f}, {-1.0f}}), torch::tensor({0.0f, 1.0f})).item<double>(), 2.5, 1e-6);
  // Uniform logits over 24 permutations: CE = ln 24 whatever the target.
  EXPECT_NEAR(grp_loss(torch::zeros({3, kRankPerms}), torch::tensor({0, 7, 23}, torch::kLong)).item<double>(),
              std::log(24.0), 1e-6);
}

TEST(Losses, BceAndFocalByHand) {
  // logit 0: p = 0.5 either way. BCE = ln 2. Focal: alpha_t (1 - 0.5)^2 ln 2.
  const auto zero = torch::zeros({1, 2});
  const auto target = torch::tensor({{1.0f, 0.0f}});
  EXPECT_NEAR(bce_loss(zero, target).item<double>(), std::log(2.0), 1e-6);
  EXPECT_NEAR(focal_loss(zero, target, 0.25, 2.0).item<double>(), (0.25 + 0.75) / 2 * 0.25 * std::log(2.0), 1e-6);
  // logit ln 3: p = 0.75. Positive: 0.25 * 0.25^2 * -ln 0.75; negative: 0.75 * 0.75^2 * -ln 0.25.
  const auto x = torch::full({1, 1}, std::log(3.0));
  EXPECT_NEAR(focal_loss(x, torch::ones({1, 1}), 0.25, 2.0).item<double>(), 0.25 * 0.0625 * -std::log(0.75), 1e-6);
  EXPECT_NEAR(focal_loss(x, torch::zeros({1, 1}), 0.25, 2.0).item<double>(), 0.75 * 0.5625 * -std::log(0.25), 1e-6);
  // gamma 0, alpha 0.5 is half the BCE.
  const auto logits = torch::randn({4, 3, 34});
  const auto labels = torch::bernoulli(torch::full({4, 3, 34}, 0.2));
  EXPECT_NEAR(focal_loss(logits, labels, 0.5, 0.0).item<double>(), 0.5 * bce_loss(logits, labels).item<double>(), 1e-6);
  // Stable for huge logits where a naive log(sigmoid) gives -inf.
  EXPECT_TRUE(std::isfinite(focal_loss(torch::full({1}, -200.0), torch::ones({1}), 0.25, 2.0).item<double>()));
}

TEST(Losses, LabelWeightsMaskEntries) {
  const auto logits = torch::tensor({{0.0f, 100.0f}});
  const auto target = torch::tensor({{1.0f, 0.0f}});
  // The second entry (confidently wrong) is masked out: only ln 2 of the first remains.
  EXPECT_NEAR(bce_loss(logits, target, torch::tensor({{1.0f, 0.0f}})).item<double>(), std::log(2.0), 1e-6);
  EXPECT_EQ(bce_loss(logits, target, torch::zeros({1, 2})).item<double>(), 0.0);
}

TEST(Losses, TotalIsTheWeightedSumOfTheTerms) {
  torch::manual_seed(3);
  const auto batch = testing::random_batch(6);
  HydraNet net(testing::tiny_config());
  const auto out = net->forward(batch.obs, batch.ctx);
  config::ModelConfig cfg;
  const auto l = compute_losses(out, batch.targets, cfg);
  const double sum = 1.0 * l.policy.item<double>() + 0.5 * l.value.item<double>() + 0.1 * l.grp.item<double>() +
                     0.05 * l.tenpai.item<double>() + 0.05 * l.danger.item<double>();
  EXPECT_NEAR(l.total.item<double>(), sum, 1e-5);
  // Undefined targets leave their terms out.
  Targets policy_only;
  policy_only.legal = batch.targets.legal;
  policy_only.action = batch.targets.action;
  const auto p = compute_losses(out, policy_only, cfg);
  EXPECT_FALSE(p.value.defined());
  EXPECT_NEAR(p.total.item<double>(), l.policy.item<double>(), 1e-6);
}

}  // namespace
}  // namespace hydra::model
