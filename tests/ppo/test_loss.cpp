// The PPO loss on a tiny batch against values worked out by hand.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include <torch/torch.h>

#include "hydra/model/network.hpp"
#include "hydra/ppo/loss.hpp"

namespace {

using namespace hydra::ppo;
using hydra::model::kActions;

// Five decisions. Illegal logits are set to 5 to show they play no part.
//   row 0: legal {0,1}, logits (0,0)      -> p = (1/2, 1/2); action 0; old p 1/2  -> ratio 1
//   row 1: legal {0,1}, logits (0,0)      -> action 1 (p 1/2); old p 1/4          -> ratio 2
//   row 2: legal {0..3}, logits 0         -> p = 1/4 each; action 2; old p 1/5    -> ratio 1.25
//   row 3: legal {0,1}, logits (ln 3, 0)  -> p = (3/4, 1/4); action 0; old p 0.8  -> ratio 0.9375
//   row 4: legal {0,1}, logits (0,0)      -> action 0 (p 1/2); old p 0.625        -> ratio 0.8
struct Batch {
  torch::Tensor logits, legal, action, old_logp, advantage, value, returns;
};

Batch tiny_batch() {
  Batch b;
  b.logits = torch::full({5, kActions}, 5.0f);
  b.legal = torch::zeros({5, kActions}, torch::kBool);
  for (int r : {0, 1, 3, 4}) {
    b.legal[r].slice(0, 0, 2).fill_(true);
    b.logits[r].slice(0, 0, 2).fill_(0.0f);
  }
  b.legal[2].slice(0, 0, 4).fill_(true);
  b.logits[2].slice(0, 0, 4).fill_(0.0f);
  b.logits[3][0] = std::log(3.0f);
  b.action = torch::tensor({0, 1, 2, 0, 0}, torch::kLong);
  b.old_logp = torch::tensor({std::log(0.5f), std::log(0.25f), std::log(0.2f), std::log(0.8f), std::log(0.625f)});
  b.advantage = torch::tensor({1.0f, 1.0f, -1.0f, 2.0f, -1.0f});
  b.value = torch::tensor({0.0f, 0.5f, 1.0f, -1.0f, 2.0f}).unsqueeze(1);
  b.returns = torch::tensor({1.0f, 0.5f, 0.0f, -1.0f, 1.0f});
  return b;
}

LossInput input(const Batch& b) {
  LossInput in;
  in.out.policy = b.logits;
  in.out.value = b.value;
  in.legal = b.legal;
  in.action = b.action;
  in.old_logp = b.old_logp;
  in.advantage = b.advantage;
  in.returns = b.returns;
  return in;
}

LossSettings raw_advantages() {
  LossSettings s;
  s.clip = 0.1;
  s.value_coef = 0.5;
  s.entropy_coef = 0.01;
  s.normalize_advantages = false;
  return s;
}

double item(const torch::Tensor& t) { return t.item<double>(); }

TEST(PpoLoss, ClippedSurrogateByHand) {
  const auto t = ppo_loss(input(tiny_batch()), raw_advantages());
  // min(r A, clip(r, 0.9, 1.1) A) per row:
  //   row 0: r 1,      A  1: min(1, 1)             = 1
  //   row 1: r 2,      A  1: min(2, 1.1)           = 1.1     (clipped: no gain past 1 + eps)
  //   row 2: r 1.25,   A -1: min(-1.25, -1.1)      = -1.25   (unclipped: the pessimistic side)
  //   row 3: r 0.9375, A  2: min(1.875, 1.875)     = 1.875   (inside the clip range)
  //   row 4: r 0.8,    A -1: min(-0.8, -0.9)       = -0.9    (clipped)
  // policy = -(1 + 1.1 - 1.25 + 1.875 - 0.9) / 5 = -0.365
  EXPECT_NEAR(item(t.policy), -0.365, 1e-6);
  // |r - 1| > 0.1 for rows 1, 2, 4.
  EXPECT_NEAR(item(t.clip_fraction), 0.6, 1e-7);
  // (r - 1) - ln r per row, averaged.
  const double kl = (0.0 + (1.0 - std::log(2.0)) + (0.25 - std::log(1.25)) + (-0.0625 - std::log(0.9375)) +
                     (-0.2 - std::log(0.8))) / 5.0;
  EXPECT_NEAR(item(t.approx_kl), kl, 1e-6);
  EXPECT_GT(kl, 0.0);
  // Entropy: ln 2 for rows 0, 1, 4; ln 4 for row 2; -(3/4 ln 3/4 + 1/4 ln 1/4) for row 3.
  const double h3 = -(0.75 * std::log(0.75) + 0.25 * std::log(0.25));
  const double entropy = (3 * std::log(2.0) + std::log(4.0) + h3) / 5.0;
  EXPECT_NEAR(item(t.entropy), entropy, 1e-6);
  // Value: squared errors 1, 0, 1, 0, 1 -> 0.6 (no clipping).
  EXPECT_NEAR(item(t.value), 0.6, 1e-7);
  EXPECT_NEAR(item(t.total), -0.365 + 0.5 * 0.6 - 0.01 * entropy, 1e-6);
  EXPECT_FALSE(t.kl_anchor.defined());
  EXPECT_FALSE(t.tenpai.defined());
}

TEST(PpoLoss, AdvantageSignDecidesTheGradient) {
  // Row 0 alone (ratio 1, inside the clip): a positive advantage pushes its logit up (the loss
  // falls as p(action) rises), a negative one pushes it down.
  for (const float a : {1.0f, -1.0f}) {
    auto b = tiny_batch();
    b.logits = b.logits.slice(0, 0, 1).clone().requires_grad_(true);
    b.legal = b.legal.slice(0, 0, 1);
    b.action = b.action.slice(0, 0, 1);
    b.old_logp = b.old_logp.slice(0, 0, 1);
    b.advantage = torch::tensor({a});
    b.value = b.value.slice(0, 0, 1);
    b.returns = b.returns.slice(0, 0, 1);
    auto s = raw_advantages();
    s.entropy_coef = 0;
    ppo_loss(input(b), s).policy.backward();
    const double g = b.logits.grad()[0][0].item<double>();
    // d/dz0 of -A * p0 / p_old at p = (1/2, 1/2): -A * p0 (1 - p0) / p_old = -A / 2.
    EXPECT_NEAR(g, -a * 0.5, 1e-6);
    EXPECT_EQ(b.logits.grad()[0][5].item<double>(), 0.0);  // illegal: no gradient
  }
}

TEST(PpoLoss, ClippedSamplesGiveNoPolicyGradient) {
  // Row 1: ratio 2 > 1.1 with A > 0: the clipped term is the minimum and is constant.
  auto b = tiny_batch();
  const auto r = torch::tensor({1}, torch::kLong);
  b.logits = b.logits.index_select(0, r).clone().requires_grad_(true);
  b.legal = b.legal.index_select(0, r);
  b.action = b.action.index_select(0, r);
  b.old_logp = b.old_logp.index_select(0, r);
  b.advantage = b.advantage.index_select(0, r);
  b.value = b.value.index_select(0, r);
  b.returns = b.returns.index_select(0, r);
  auto s = raw_advantages();
  s.entropy_coef = 0;
  ppo_loss(input(b), s).policy.backward();
  EXPECT_EQ(b.logits.grad().abs().sum().item<double>(), 0.0);
}

// The expected policy gradient (ppo.policy_gradient = expected). Row 2 of the tiny batch (four
// legal actions, p = 1/4 each) with pi_old = p and action advantages A = (1, -1, 0.5, -0.5):
// the term is sum_a pi_old(a) r_a A_a = sum_a p_a A_a = 0, and its gradient with respect to the
// logits at pi = pi_old is sum_a grad pi(a) A_a, i.e. d/dz_b = p_b (A_b - sum_a p_a A_a) =
// A_b / 4 on the legal actions and 0 elsewhere, whatever action was sampled.
TEST(PpoLoss, ExpectedPolicyGradientByHand) {
  auto b = tiny_batch();
  const auto r = torch::tensor({2}, torch::kLong);
  const auto logits = b.logits.index_select(0, r).clone().requires_grad_(true);
  LossInput in = input(b);
  in.out.policy = logits;
  in.out.value = b.value.index_select(0, r);
  in.legal = b.legal.index_select(0, r);
  in.action = b.action.index_select(0, r);
  in.old_logp = torch::tensor({std::log(0.25f)});
  in.advantage = torch::tensor({123.0f});  // only reported: the expected form ignores it
  in.returns = b.returns.index_select(0, r);
  in.action_advantage = torch::zeros({1, kActions});
  in.action_advantage[0].slice(0, 0, 4).copy_(torch::tensor({1.0f, -1.0f, 0.5f, -0.5f}));
  in.old_probs = torch::zeros({1, kActions});
  in.old_probs[0].slice(0, 0, 4).fill_(0.25f);
  auto s = raw_advantages();
  s.entropy_coef = 0;
  const auto terms = ppo_loss(in, s);
  EXPECT_NEAR(item(terms.policy), 0.0, 1e-7);
  terms.policy.backward();
  const auto g = logits.grad()[0];
  const float want[4] = {-0.25f, 0.25f, -0.125f, 0.125f};  // the loss is minus the term
  for (int a = 0; a < 4; ++a) EXPECT_NEAR(g[a].item<double>(), want[a], 1e-6) << "action " << a;
  EXPECT_EQ(g.slice(0, 4).abs().sum().item<double>(), 0.0) << "illegal actions get no gradient";

  // Clipping per action, A = (1, -1, 0.5, -0.25), pi_old = (0.2, 0.3, 0.25, 0.25) against p = 1/4:
  // r_0 = 1.25 > 1.1 with A_0 > 0 and r_1 = 0.83 < 0.9 with A_1 < 0, so for both the clipped term
  // (constant) is the minimum and they push nothing; 2 and 3 (r = 1) still do. With U = {2, 3}
  // and S = sum over U of p_a A_a = (0.5 - 0.25) / 4, d/dz_b = -p_b (A_b [b in U] - S).
  const auto logits2 = b.logits.index_select(0, r).clone().requires_grad_(true);
  in.out.policy = logits2;
  in.action_advantage[0].slice(0, 0, 4).copy_(torch::tensor({1.0f, -1.0f, 0.5f, -0.25f}));
  in.old_probs[0].slice(0, 0, 4).copy_(torch::tensor({0.2f, 0.3f, 0.25f, 0.25f}));
  ppo_loss(in, s).policy.backward();
  const double sum_u = (0.5 - 0.25) / 4.0;
  const double want2[4] = {0.25 * sum_u, 0.25 * sum_u, -0.25 * (0.5 - sum_u), -0.25 * (-0.25 - sum_u)};
  for (int a = 0; a < 4; ++a) EXPECT_NEAR(logits2.grad()[0][a].item<double>(), want2[a], 1e-6) << "action " << a;
}

TEST(PpoLoss, AdvantageNormalisation) {
  // mean 2.5, population std sqrt(1.25): (1 - 2.5) / 1.1180340 = -1.3416408 etc.
  const auto a = normalize_advantages(torch::tensor({1.0f, 2.0f, 3.0f, 4.0f}), 5.0);
  EXPECT_NEAR(a[0].item<double>(), -1.3416408, 1e-6);
  EXPECT_NEAR(a[1].item<double>(), -0.4472136, 1e-6);
  EXPECT_NEAR(a[3].item<double>(), 1.3416408, 1e-6);
  // Clipped to [-1, 1].
  const auto c = normalize_advantages(torch::tensor({1.0f, 2.0f, 3.0f, 4.0f}), 1.0);
  EXPECT_NEAR(c[0].item<double>(), -1.0, 1e-7);
  EXPECT_NEAR(c[2].item<double>(), 0.4472136, 1e-6);
  // One sample: std 0 -> 0, not NaN.
  EXPECT_EQ(normalize_advantages(torch::tensor({3.0f}), 5.0)[0].item<double>(), 0.0);
}

TEST(PpoLoss, KlAnchor) {
  auto b = tiny_batch();
  auto anchor = b.logits.clone();
  anchor[0][0] = std::log(3.0f);  // row 0 anchor: q = (3/4, 1/4), pi = (1/2, 1/2)
  // KL(pi || q) = 1/2 ln((1/2)/(3/4)) + 1/2 ln((1/2)/(1/4)) = 1/2 ln(4/3); other rows 0.
  const auto kl = masked_kl(b.logits, anchor, b.legal);
  EXPECT_NEAR(kl[0].item<double>(), 0.5 * std::log(4.0 / 3.0), 1e-6);
  EXPECT_NEAR(kl[2].item<double>(), 0.0, 1e-7);
  auto in = input(b);
  in.anchor_logits = anchor;
  auto s = raw_advantages();
  s.kl_anchor_coef = 0.05;
  const auto t = ppo_loss(in, s);
  EXPECT_NEAR(t.kl_anchor.item<double>(), 0.5 * std::log(4.0 / 3.0) / 5.0, 1e-6);
  const auto plain = ppo_loss(input(b), s);
  EXPECT_NEAR(t.total.item<double>() - plain.total.item<double>(), 0.05 * t.kl_anchor.item<double>(), 1e-6);
}

TEST(PpoLoss, AuxLabelsFromWaitMasks) {
  // Opponent 0 not tenpai, opponent 1 waits on tile types 0 and 2, opponent 2 on type 33.
  const auto waits = torch::tensor({std::int64_t{0}, std::int64_t{0b101}, std::int64_t{1} << 33}).reshape({1, 3});
  const auto tenpai = tenpai_labels(waits);
  EXPECT_TRUE(torch::equal(tenpai, torch::tensor({0.0f, 1.0f, 1.0f}).reshape({1, 3})));
  const auto danger = danger_labels(waits);
  ASSERT_EQ(danger.sizes(), (std::vector<std::int64_t>{1, 3, 34}));
  EXPECT_EQ(danger.sum().item<double>(), 3.0);
  EXPECT_EQ(danger[0][1][0].item<double>(), 1.0);
  EXPECT_EQ(danger[0][1][2].item<double>(), 1.0);
  EXPECT_EQ(danger[0][2][33].item<double>(), 1.0);
}

TEST(PpoLoss, AuxLossesUseTheModelDefinitionsWithPpoWeights) {
  auto in = input(tiny_batch());
  // All-zero logits: BCE = ln 2 per label; focal at p = 1/2: alpha_t * (1/2)^2 * ln 2.
  in.out.tenpai = torch::zeros({5, 3});
  in.out.danger = torch::zeros({5, 3, 34});
  in.tenpai = torch::ones({5, 3});
  in.danger = torch::zeros({5, 3, 34});
  auto s = raw_advantages();
  s.w_tenpai = 0.1;
  s.w_danger = 0.2;
  const auto t = ppo_loss(in, s);
  EXPECT_NEAR(t.tenpai.item<double>(), std::log(2.0), 1e-6);
  EXPECT_NEAR(t.danger.item<double>(), 0.75 * 0.25 * std::log(2.0), 1e-6);  // negatives: 1 - alpha
  const auto plain = ppo_loss(input(tiny_batch()), s);
  EXPECT_NEAR(t.total.item<double>() - plain.total.item<double>(),
              0.1 * std::log(2.0) + 0.2 * 0.75 * 0.25 * std::log(2.0), 1e-6);
}

// Row weights (ppo.unplayed_share) are rows repeated: with integer weights every term, the
// statistics and the gradient equal those of the unweighted batch whose row i appears w_i times.
// Both policy-gradient forms, normalised advantages, the anchor, its entropy target and the aux
// heads, on random values.
TEST(PpoLoss, RowWeightsAreRowsRepeated) {
  torch::manual_seed(7);
  const std::int64_t rows = 6;
  const auto weight = torch::tensor({1.0f, 3.0f, 1.0f, 2.0f, 4.0f, 1.0f});
  std::vector<std::int64_t> repeat;
  for (std::int64_t i = 0; i < rows; ++i)
    for (int k = 0; k < weight[i].item<int>(); ++k) repeat.push_back(i);
  const auto rep = torch::tensor(repeat, torch::kLong);
  auto legal = torch::rand({rows, kActions}).lt(0.5);
  legal.select(1, 0).fill_(true);
  legal.select(1, 1).fill_(true);
  const auto logits = torch::randn({rows, kActions});
  const auto action = torch::randint(0, 2, {rows}, torch::kLong);
  const auto probs = torch::where(legal, torch::softmax(torch::randn({rows, kActions}).masked_fill(~legal, -1e9), 1),
                                  torch::zeros({rows, kActions}));
  const auto action_advantage = torch::where(legal, torch::randn({rows, kActions}), torch::zeros({rows, kActions}));
  LossInput base;
  base.out.value = torch::randn({rows, 1});
  base.out.tenpai = torch::randn({rows, 3});
  base.out.danger = torch::randn({rows, 3, 34});
  base.legal = legal;
  base.action = action;
  base.old_logp = probs.gather(1, action.unsqueeze(1)).squeeze(1).log() + 0.05f * torch::randn({rows});
  base.advantage = torch::randn({rows});
  base.returns = torch::randn({rows});
  base.tenpai = torch::rand({rows, 3}).lt(0.5).to(torch::kFloat);
  base.danger = torch::rand({rows, 3, 34}).lt(0.1).to(torch::kFloat);
  base.anchor_logits = torch::randn({rows, kActions});
  LossSettings s;
  s.kl_anchor_coef = 0.1;
  s.entropy_target = -1;  // the anchor's entropy on the minibatch
  s.w_tenpai = 0.05;
  s.w_danger = 0.05;
  for (const bool expected : {false, true}) {
    for (const bool normalise : {false, true}) {
      s.normalize_advantages = normalise;
      const auto weighted_logits = logits.clone().requires_grad_(true);
      LossInput w = base;
      w.out.policy = weighted_logits;
      w.weight = weight;
      if (expected) {
        w.action_advantage = action_advantage;
        w.old_probs = probs;
      }
      const auto repeated_logits = logits.clone().requires_grad_(true);
      LossInput r;
      r.out.policy = repeated_logits.index_select(0, rep);
      r.out.value = base.out.value.index_select(0, rep);
      r.out.tenpai = base.out.tenpai.index_select(0, rep);
      r.out.danger = base.out.danger.index_select(0, rep);
      const auto pick = [&](const torch::Tensor& t) { return t.index_select(0, rep); };
      r.legal = pick(base.legal);
      r.action = pick(base.action);
      r.old_logp = pick(base.old_logp);
      r.advantage = pick(base.advantage);
      r.returns = pick(base.returns);
      r.tenpai = pick(base.tenpai);
      r.danger = pick(base.danger);
      r.anchor_logits = pick(base.anchor_logits);
      if (expected) {
        r.action_advantage = action_advantage.index_select(0, rep);
        r.old_probs = probs.index_select(0, rep);
      }
      const auto tw = ppo_loss(w, s);
      const auto tr = ppo_loss(r, s);
      const std::string where = std::string(expected ? "expected" : "sampled") + (normalise ? ", normalised" : "");
      using Term = std::tuple<const torch::Tensor*, const torch::Tensor*, const char*>;
      const std::vector<Term> terms{{&tw.total, &tr.total, "total"},
                                    {&tw.policy, &tr.policy, "policy"},
                                    {&tw.value, &tr.value, "value"},
                                    {&tw.entropy, &tr.entropy, "entropy"},
                                    {&tw.entropy_target, &tr.entropy_target, "entropy target"},
                                    {&tw.kl_anchor, &tr.kl_anchor, "kl anchor"},
                                    {&tw.tenpai, &tr.tenpai, "tenpai"},
                                    {&tw.danger, &tr.danger, "danger"},
                                    {&tw.approx_kl, &tr.approx_kl, "approx kl"},
                                    {&tw.clip_fraction, &tr.clip_fraction, "clip fraction"}};
      for (const auto& [a, b, name] : terms) {
        ASSERT_TRUE(a->defined() && b->defined()) << name << ", " << where;
        EXPECT_NEAR(item(*a), item(*b), 1e-5) << name << ", " << where;
      }
      EXPECT_GT(item(tw.clip_fraction), 0.0) << "the test clips some rows, " << where;
      tw.total.backward();
      tr.total.backward();
      EXPECT_LT((weighted_logits.grad() - repeated_logits.grad()).abs().max().item<double>(), 1e-6) << where;
    }
  }
}

}  // namespace
