// The bf16 CPU forward (model::CpuBf16Net) against the network's own fp32 forward.

#include <gtest/gtest.h>

#include <cstdio>

#include "hydra/model/cpu_bf16.hpp"
#include "hydra/model/losses.hpp"
#include "hydra/model/network.hpp"
#include "model_fixtures.hpp"

namespace hydra::model {
namespace {

// A 4 x 64 network whose every parameter matters: the orthogonal init, then GroupNorm scales and
// shifts and SE biases drawn away from their identity init, and head outputs scaled to logits of
// order one (the init's 0.01 gain would make every policy nearly uniform).
HydraNet varied_network() {
  auto cfg = testing::tiny_config(4);
  cfg.channels = 64;
  HydraNet net(cfg);
  net->init_weights(11);
  torch::NoGradGuard no_grad;
  torch::manual_seed(3);
  for (auto& p : net->named_parameters()) {
    const auto& name = p.key();
    auto& t = p.value();
    if (name.find("norm") != std::string::npos)
      t.copy_(name.ends_with("weight") ? 1 + 0.3 * torch::randn_like(t) : 0.3 * torch::randn_like(t));
    else if (name.ends_with("bias")) t.copy_(0.1 * torch::randn_like(t));
  }
  net->policy->fc->weight.mul_(100);
  net->value->fc2->weight.mul_(3);
  net->eval();
  return net;
}

torch::Tensor fp32_logits_and_values(HydraNetImpl& net, const torch::Tensor& obs, const torch::Tensor& ctx) {
  torch::NoGradGuard no_grad;
  const auto out = net.forward(obs, ctx);
  return torch::cat({out.policy, out.value}, 1);
}

TEST(CpuBf16, MatchesTheFp32ForwardToBf16Precision) {
  if (!CpuBf16Net::supported()) GTEST_SKIP() << "this CPU lacks AVX-512";
  auto net = varied_network();
  torch::manual_seed(5);
  const auto batch = testing::random_batch(64);
  const auto ref = fp32_logits_and_values(*net, batch.obs, batch.ctx);
  const CpuBf16Net low(*net);
  const auto got = low.logits_and_values(batch.obs, batch.ctx);
  ASSERT_EQ(got.sizes(), ref.sizes());
  ASSERT_EQ(got.scalar_type(), torch::kFloat);
  const auto logits = ref.narrow(1, 0, kActions), low_logits = got.narrow(1, 0, kActions);
  // bf16 keeps 8 significant bits (0.4% a rounding) through 4 blocks; the logits' spread is of
  // order one, so a wrong layout or a misread parameter shows as errors of that order.
  const double logit_err = ((logits - low_logits).abs().max() / logits.abs().max()).item<double>();
  const double value_err = ((ref.select(1, kActions) - got.select(1, kActions)).abs().max() /
                            ref.select(1, kActions).abs().max())
                               .item<double>();
  const auto legal = batch.targets.legal;
  const double prob_err = (masked_softmax(logits, legal) - masked_softmax(low_logits, legal)).abs().max().item<double>();
  const auto argmax = [&](const torch::Tensor& l) { return l.masked_fill(legal.logical_not(), -1e9).argmax(1); };
  const auto agree = (argmax(logits) == argmax(low_logits)).sum().item<std::int64_t>();
  std::printf("bf16 CPU forward: logits %.3e, value %.3e of max |fp32|; probabilities %.3e; argmax %lld of 64\n",
              logit_err, value_err, prob_err, static_cast<long long>(agree));
  EXPECT_GT(logits.std().item<double>(), 0.3);  // the comparison is not of near-uniform policies
  EXPECT_LT(logit_err, 0.05);
  EXPECT_LT(value_err, 0.05);
  EXPECT_LT(prob_err, 0.03);
  EXPECT_GE(agree, 60);
}

// The same batch gives the same numbers to the bit, call after call. A row alone or among other
// rows agrees to bf16's precision, not to the bit: oneDNN and the BLAS choose their kernels by the
// batch's size, as they do for the fp32 forward (docs/SELFPLAY.md "Determinism": results are
// identical for a fixed batch composition and thread count).
TEST(CpuBf16, SameBatchSameNumbersAndARowAloneAgrees) {
  if (!CpuBf16Net::supported()) GTEST_SKIP() << "this CPU lacks AVX-512";
  auto net = varied_network();
  torch::manual_seed(6);
  const auto batch = testing::random_batch(37);
  const CpuBf16Net low(*net);
  const auto all = low.logits_and_values(batch.obs, batch.ctx);
  EXPECT_TRUE(torch::equal(all, low.logits_and_values(batch.obs, batch.ctx)));
  for (const std::int64_t row : {0, 5, 36}) {
    const auto alone = low.logits_and_values(batch.obs.narrow(0, row, 1), batch.ctx.narrow(0, row, 1))[0];
    const double err = ((alone - all[row]).abs().max() / all[row].abs().max()).item<double>();
    EXPECT_LT(err, 0.02) << "row " << row;
  }
}

}  // namespace
}  // namespace hydra::model
