// Behaviour-cloning steps on a tiny synthetic batch: every loss term falls and the policy comes
// to name the logged action; the step follows the configured schedule.

#include <gtest/gtest.h>

#include <torch/torch.h>

#include "hydra/encoder/layout.hpp"
#include "hydra/pretrain/bc.hpp"
#include "hydra/common/index.hpp"

namespace hydra::pretrain {
namespace {

// n decisions with random observations, 4 legal actions each (the logged one among them) and
// random labels, drawn from torch's generator seeded here.
data::SampleBatch synthetic_batch(int n) {
  torch::manual_seed(11);
  data::SampleBatch b;
  const auto un = ix(n);
  const auto obs = torch::rand({n * encoder::kObsSize});
  b.obs.assign(obs.data_ptr<float>(), obs.data_ptr<float>() + obs.numel());
  const auto ctx = torch::rand({n * 16});
  b.context.assign(ctx.data_ptr<float>(), ctx.data_ptr<float>() + ctx.numel());
  b.legal.assign(un * 46, 0);
  const auto acts = torch::randint(0, 46, {n, 4}, torch::kLong);
  const auto pick = torch::randint(0, 4, {n}, torch::kLong);
  const auto grp = torch::randint(0, 24, {n}, torch::kLong);
  const auto tenpai = torch::randint(0, 2, {n * 3}).to(torch::kFloat);
  const auto danger = torch::randint(0, 2, {n * 3 * 34}).to(torch::kFloat);
  const float places[4] = {3.f, 1.f, -1.f, -3.f};
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 4; ++k) b.legal[ix(i) * 46 + static_cast<std::size_t>(acts[i][k].item<std::int64_t>())] = 1;
    const std::int64_t a = acts[i][pick[i].item<std::int64_t>()].item<std::int64_t>();
    b.action.push_back(a);
    b.type.push_back(static_cast<std::uint8_t>(data::decision_type(static_cast<int>(a))));
    b.value.push_back(places[i % 4]);
    b.grp.push_back(grp[i].item<std::int64_t>());
  }
  b.tenpai.assign(tenpai.data_ptr<float>(), tenpai.data_ptr<float>() + tenpai.numel());
  b.danger.assign(danger.data_ptr<float>(), danger.data_ptr<float>() + danger.numel());
  return b;
}

config::Config tiny_config() {
  config::Config cfg;
  cfg.model.blocks = 1;
  cfg.model.channels = 32;
  cfg.model.policy_channels = 8;
  cfg.model.value_hidden = 32;
  cfg.model.grp_hidden = 32;
  cfg.model.tenpai_hidden = 16;
  cfg.pretrain.lr = 3e-3;
  cfg.pretrain.lr_floor = 1e-4;
  cfg.pretrain.warmup = 0.0;
  cfg.pretrain.grad_clip = 1.0;
  return cfg;
}

TEST(Bc, LossFallsOnATinyBatch) {
  const data::SampleBatch batch = synthetic_batch(16);
  const config::Config cfg = tiny_config();
  BcLearner learner(cfg.model, cfg.pretrain, torch::Device(torch::kCPU), 80, 3);
  const StepStats first = learner.step(batch);
  EXPECT_DOUBLE_EQ(first.lr, 3e-3);  // no warmup: the peak at step 0
  EXPECT_GT(first.grad_norm, 0.0);
  StepStats last = first;
  for (int i = 1; i < 80; ++i) last = learner.step(batch);
  EXPECT_EQ(learner.steps(), 80);
  std::printf("bc: loss %.4f -> %.4f, policy %.4f -> %.4f, accuracy %.3f -> %.3f\n", first.loss.total, last.loss.total,
              first.loss.policy, last.loss.policy, first.accuracy, last.accuracy);
  EXPECT_LT(last.loss.total, 0.5 * first.loss.total);
  EXPECT_LT(last.loss.policy, 0.5 * first.loss.policy);
  EXPECT_LT(last.loss.value, first.loss.value);
  EXPECT_LT(last.loss.grp, first.loss.grp);
  EXPECT_LT(last.loss.tenpai, first.loss.tenpai);
  EXPECT_LT(last.loss.danger, first.loss.danger);
  EXPECT_GE(last.accuracy, 0.9);
  // The schedule ends at the floor.
  EXPECT_NEAR(last.lr, cfg.pretrain.lr_floor, 1e-5);
}

TEST(Bc, ValidationTalliesEveryDecisionOfTheBatch) {
  // validate() over a Dataset is exercised by the CLI tests; here the tally of one forward pass
  // agrees with the learner's own top-1 on the same batch.
  const data::SampleBatch batch = synthetic_batch(16);
  const config::Config cfg = tiny_config();
  BcLearner learner(cfg.model, cfg.pretrain, torch::Device(torch::kCPU), 40, 5);
  for (int i = 0; i < 40; ++i) learner.step(batch);
  torch::NoGradGuard no_grad;
  learner.net()->eval();
  const BcBatch t = to_tensors(batch, torch::Device(torch::kCPU));
  const auto out = learner.net()->forward(t.obs, t.context);
  DecisionAccuracy acc;
  tally(out.policy, batch, acc);
  EXPECT_EQ(acc.total(), 16);
  const double direct =
      model::masked_logits(out.policy, t.targets.legal).argmax(1).eq(t.targets.action).to(torch::kDouble).mean().item<double>();
  EXPECT_DOUBLE_EQ(acc.accuracy(), direct);
}

}  // namespace
}  // namespace hydra::pretrain
