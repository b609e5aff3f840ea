// Training behaviour: a tiny network memorises a small fixed batch; the optimizer groups and
// the learning-rate schedule follow the spec.

#include <gtest/gtest.h>

#include <cmath>

#include "hydra/model/losses.hpp"
#include "hydra/model/optim.hpp"
#include "model_fixtures.hpp"

namespace hydra::model {
namespace {

TEST(Train, TinyModelOverfitsAFixedBatch) {
  torch::manual_seed(8);
  auto cfg = testing::tiny_config(2);
  HydraNet net(cfg);
  net->init_weights(9);
  const auto batch = testing::random_batch(8);
  auto opt = make_adamw(*net, {.lr = 3e-3});
  double first = 0, last = 0;
  for (int step = 0; step < 400; ++step) {
    opt->zero_grad();
    const auto l = compute_losses(net->forward(batch.obs, batch.ctx), batch.targets, cfg);
    l.total.backward();
    opt->step();
    (step == 0 ? first : last) = l.total.item<double>();
  }
  const auto l = compute_losses(net->forward(batch.obs, batch.ctx), batch.targets, cfg);
  std::printf("overfit: loss %.4f -> %.5f (policy %.5f value %.5f grp %.5f tenpai %.5f danger %.5f)\n", first,
              l.total.item<double>(), l.policy.item<double>(), l.value.item<double>(), l.grp.item<double>(),
              l.tenpai.item<double>(), l.danger.item<double>());
  EXPECT_GT(first, 1.0);
  EXPECT_LT(l.total.item<double>(), 0.01 * first);
  // Memorised: the arg-max legal action is the target in every row.
  const auto pick = masked_logits(net->forward(batch.obs, batch.ctx).policy, batch.targets.legal).argmax(1);
  EXPECT_TRUE(torch::equal(pick, batch.targets.action));
}

TEST(Train, AdamWDecaysOnlyWeightMatrices) {
  HydraNet net(testing::tiny_config());
  const auto opt = make_adamw(*net);
  const auto& groups = opt->param_groups();
  ASSERT_EQ(groups.size(), 2u);
  const auto& decay = static_cast<const torch::optim::AdamWOptions&>(groups[0].options());
  const auto& none = static_cast<const torch::optim::AdamWOptions&>(groups[1].options());
  EXPECT_DOUBLE_EQ(decay.weight_decay(), 0.01);
  EXPECT_DOUBLE_EQ(none.weight_decay(), 0.0);
  EXPECT_DOUBLE_EQ(decay.eps(), 1e-5);
  for (const auto& p : groups[0].params()) EXPECT_GE(p.dim(), 2);
  for (const auto& p : groups[1].params()) EXPECT_EQ(p.dim(), 1);  // biases, GroupNorm
  EXPECT_EQ(groups[0].params().size() + groups[1].params().size(), net->parameters().size());
}

TEST(Train, WarmupCosineByHand) {
  const auto s = WarmupCosine::spec(1000);  // warmup 50 steps, 5e-4 -> 1e-5
  EXPECT_EQ(s.warmup, 50);
  EXPECT_DOUBLE_EQ(s.lr(0), 5e-4 / 50);
  EXPECT_DOUBLE_EQ(s.lr(49), 5e-4);
  EXPECT_DOUBLE_EQ(s.lr(50), 5e-4);                              // cosine starts at the peak
  EXPECT_NEAR(s.lr(525), 1e-5 + 0.5 * (5e-4 - 1e-5), 1e-12);     // half-way: the mean
  EXPECT_DOUBLE_EQ(s.lr(1000), 1e-5);
  EXPECT_DOUBLE_EQ(s.lr(5000), 1e-5);
  const auto back = WarmupCosine::from_json(s.to_json());
  EXPECT_EQ(back.total, s.total);
  EXPECT_DOUBLE_EQ(back.lr(300), s.lr(300));
}

}  // namespace
}  // namespace hydra::model
