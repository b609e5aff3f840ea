// Training behaviour: a tiny network memorises a small fixed batch; the optimizer groups and
// the learning-rate schedule follow the spec.

#include <gtest/gtest.h>

#include <cmath>
#include <utility>

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

// Two networks of `cfg` with the same initial weights.
std::pair<HydraNet, HydraNet> twins(const config::ModelConfig& cfg, std::uint64_t seed) {
  HydraNet a(cfg), b(cfg);
  a->init_weights(seed);
  b->init_weights(seed);
  return {a, b};
}

// Two copies of one network: the same losses stepped by LibTorch's AdamW and by the fused
// multi-tensor step (PyTorch's AdamW(fused=True) kernel, here on the CPU) stay together over
// many steps, keep the same state (step counts, moments), and a frozen parameter (no gradient)
// is skipped by both, its step count left behind.
TEST(Train, FusedAdamWStepMatchesLibTorchsAdamW) {
  auto cfg = testing::tiny_config(2);
  auto [a, b] = twins(cfg, 3);
  const auto batch = testing::random_batch(8);
  auto oa = make_adamw(*a, {.lr = 3e-3, .weight_decay = 0.1});
  auto ob = make_adamw(*b, {.lr = 3e-3, .weight_decay = 0.1});
  const auto step = [&](HydraNet& net, torch::optim::AdamW& opt, bool fused, bool freeze_stem) {
    opt.zero_grad();
    net->stem->weight.set_requires_grad(!freeze_stem);
    compute_losses(net->forward(batch.obs, batch.ctx), batch.targets, cfg).total.backward();
    if (freeze_stem) net->stem->weight.mutable_grad() = torch::Tensor();
    adamw_step(opt, fused);
    net->stem->weight.set_requires_grad(true);
  };
  for (int i = 0; i < 30; ++i) {
    step(a, *oa, false, i < 5);
    step(b, *ob, true, i < 5);
  }
  const auto pa = a->parameters(), pb = b->parameters();
  double worst = 0;
  for (std::size_t i = 0; i < pa.size(); ++i) worst = std::max(worst, (pa[i] - pb[i]).abs().max().item<double>());
  std::printf("fused vs LibTorch AdamW after 30 steps: max |weight difference| %.3g\n", worst);
  EXPECT_LT(worst, 1e-5);
  const auto& sa = static_cast<const torch::optim::AdamWParamState&>(*oa->state().at(a->stem->weight.unsafeGetTensorImpl()));
  const auto& sb = static_cast<const torch::optim::AdamWParamState&>(*ob->state().at(b->stem->weight.unsafeGetTensorImpl()));
  EXPECT_EQ(sa.step(), 25);
  EXPECT_EQ(sb.step(), 25);
  EXPECT_LT((sa.exp_avg_sq() - sb.exp_avg_sq()).abs().max().item<double>(), 1e-6);
  const auto& other = static_cast<const torch::optim::AdamWParamState&>(*ob->state().at(pb.back().unsafeGetTensorImpl()));
  EXPECT_EQ(other.step(), 30);
}

// clip_gradients is torch.nn.utils.clip_grad_norm_: the same total norm and the same clipped
// gradients, with and without clipping.
TEST(Train, ClipGradientsIsClipGradNorm) {
  auto cfg = testing::tiny_config(2);
  auto [a, b] = twins(cfg, 4);
  const auto batch = testing::random_batch(8);
  for (const double max_norm : {0.05, 1e9}) {
    for (auto* net : {&a, &b}) {
      (*net)->zero_grad();
      compute_losses((*net)->forward(batch.obs, batch.ctx), batch.targets, cfg).total.backward();
    }
    const double ref = torch::nn::utils::clip_grad_norm_(a->parameters(), max_norm);
    const double got = clip_gradients(b->parameters(), max_norm).item<double>();
    EXPECT_NEAR(got, ref, 1e-6 * ref);
    const auto pa = a->parameters(), pb = b->parameters();
    for (std::size_t i = 0; i < pa.size(); ++i)
      EXPECT_TRUE(torch::allclose(pa[i].grad(), pb[i].grad(), 1e-6, 1e-9)) << "parameter " << i;
  }
  EXPECT_EQ(clip_gradients({torch::zeros({3}, torch::requires_grad())}, 1.0).item<double>(), 0.0);
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
