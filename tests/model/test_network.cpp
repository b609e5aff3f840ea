// The SE-ResNet: output shapes, parameter count, init, cloning, score context, bf16 autocast.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include <ATen/autocast_mode.h>

#include "hydra/common/error.hpp"
#include "hydra/model/fused_norm.hpp"
#include "hydra/model/losses.hpp"
#include "hydra/model/network.hpp"
#include "hydra/model/precision.hpp"
#include "hydra/model/profiler.hpp"
#include "hydra/model/summary.hpp"
#include "model_fixtures.hpp"
#include "hydra/common/index.hpp"

namespace hydra::model {
namespace {

TEST(Network, OutputShapes) {
  torch::manual_seed(1);
  HydraNet net(testing::tiny_config(2));
  const auto batch = testing::random_batch(5);
  const auto out = net->forward(batch.obs, batch.ctx);
  EXPECT_EQ(out.policy.sizes(), (std::vector<std::int64_t>{5, 46}));
  EXPECT_EQ(out.value.sizes(), (std::vector<std::int64_t>{5, 1}));
  EXPECT_EQ(out.grp.sizes(), (std::vector<std::int64_t>{5, 24}));
  EXPECT_EQ(out.tenpai.sizes(), (std::vector<std::int64_t>{5, 3}));
  EXPECT_EQ(out.danger.sizes(), (std::vector<std::int64_t>{5, 3, 34}));
}

// Hand count of the default 40x256 network (docs/MODEL.md has the same table).
TEST(Network, DefaultParameterCount) {
  const config::ModelConfig def;
  const std::int64_t c = 256, h = c / 16;
  const std::int64_t block = 2 * (2 * c) + 2 * (c * c * 3) + (c * h + h) + (h * c + c);
  const std::int64_t expected = 85 * c * 3 + 40 * block + 2 * c + (c * 64 + 64) + (64 * 34 * 46 + 46) +
                                ((c + 16) * 512 + 512 + 512 + 1) + ((c + 16) * 256 + 256 + 256 * 24 + 24) +
                                (c * 64 + 64 + 64 * 3 + 3) + (c * 3 + 3);
  const auto s = summarize(def);
  std::printf("default 40x256 network: %lld parameters (%lld per block)\n", static_cast<long long>(s.total),
              static_cast<long long>(s.per_block));
  EXPECT_EQ(s.per_block, block);
  EXPECT_EQ(s.total, expected);
  EXPECT_NEAR(static_cast<double>(s.total), 16.5e6, 0.03 * 16.5e6);
  std::int64_t sum = 0;
  for (const auto& comp : s.components) sum += comp.parameters;
  EXPECT_EQ(sum, s.total);
  // GRU(7->128, 2 layers) + Linear(128->24): 3 gates x (in*H + H*H + 2H) per layer.
  const std::int64_t gru = 3 * (7 * 128 + 128 * 128 + 2 * 128) + 3 * (128 * 128 + 128 * 128 + 2 * 128);
  EXPECT_EQ(s.grp_model, gru + 128 * 24 + 24);
}

TEST(Network, RejectsChannelsNotMultipleOf32) {
  auto c = testing::tiny_config();
  c.channels = 48;
  EXPECT_THROW(HydraNet{c}, Error);
}

// Orthogonal init: rows (or columns) of every initialised matrix are orthonormal times the gain.
TEST(Network, OrthogonalInitWithSpecGains) {
  HydraNet net(testing::tiny_config(2));
  net->init_weights(7);
  auto check = [](const torch::Tensor& w, double gain) {
    auto m = w.reshape({w.size(0), -1}).to(torch::kDouble);
    if (m.size(0) > m.size(1)) m = m.t();
    const auto gram = torch::matmul(m, m.t()) / (gain * gain);
    EXPECT_TRUE(torch::allclose(gram, torch::eye(m.size(0), torch::kDouble), 1e-5, 1e-5)) << w.sizes();
  };
  const double hidden = std::sqrt(2.0);
  check(net->stem->weight, hidden);
  check(net->blocks[0]->as<SEResBlockImpl>()->conv2->weight, hidden);
  check(net->policy->fc->weight, 0.01);
  check(net->value->fc2->weight, 1.0);
  check(net->danger->weight, 0.01);
  EXPECT_EQ(net->value->fc1->bias.abs().sum().item<double>(), 0.0);
  // Same seed, same weights; the global RNG does not matter.
  HydraNet other(testing::tiny_config(2));
  torch::manual_seed(123);
  other->init_weights(7);
  EXPECT_TRUE(torch::equal(net->blocks[1]->as<SEResBlockImpl>()->conv1->weight,
                           other->blocks[1]->as<SEResBlockImpl>()->conv1->weight));
}

TEST(Network, CloneIsDeepAndEqual) {
  HydraNet net(testing::tiny_config());
  net->init_weights(3);
  auto copy = std::dynamic_pointer_cast<HydraNetImpl>(net->clone());
  const auto batch = testing::random_batch(3);
  EXPECT_TRUE(torch::equal(net->forward(batch.obs, batch.ctx).policy, copy->forward(batch.obs, batch.ctx).policy));
  torch::NoGradGuard no_grad;
  copy->stem->weight.add_(1.0);
  EXPECT_FALSE(torch::equal(net->stem->weight, copy->stem->weight));
}

TEST(Network, ScoreContextByHand) {
  // Self 32,000; shimocha 25,000; toimen 25,000; kamicha 18,000; South 2 (round 5), 3 honba.
  const auto ctx = score_context({32000, 25000, 25000, 18000}, 5, 3);
  const float expect[16] = {0.32f, 0.25f, 0.25f, 0.18f,                 // scores
                            0.07f, 0.07f, 0.14f, 0.0f, 0.07f, 0.07f,    // gaps 01 02 03 12 13 23
                            0.0f, 0.07f, 0.07f, 0.07f,                  // to next higher score
                            5.0f / 8.0f, 0.3f};
  for (int i = 0; i < 16; ++i) EXPECT_NEAR(ctx[ix(i)], expect[i], 1e-6) << i;
  EXPECT_FLOAT_EQ(score_context({25000, 25000, 25000, 25000}, 10, 0)[14], 1.0f);  // West clips
}

// The value head reads the score context directly: the same observation under two score
// situations gets two values, while the policy, which does not see the context, is unchanged.
TEST(Network, ValueHeadSeesTheScoreContext) {
  auto cfg = testing::tiny_config(1);
  cfg.channels = 64;
  HydraNet net(cfg);
  net->init_weights(3);
  torch::manual_seed(2);
  const auto batch = testing::random_batch(4);
  torch::NoGradGuard no_grad;
  const auto leading = torch::tensor(std::vector<float>(16, 0.0f)).index_put_({0}, 0.45f).unsqueeze(0).expand({4, 16});
  const auto trailing = torch::tensor(std::vector<float>(16, 0.0f)).index_put_({0}, 0.05f).unsqueeze(0).expand({4, 16});
  const auto a = net->forward(batch.obs, leading), b = net->forward(batch.obs, trailing);
  EXPECT_GT((a.value - b.value).abs().min().item<double>(), 1e-4) << "every row's value changes with the scores";
  EXPECT_TRUE(torch::equal(a.policy, b.policy));
  EXPECT_EQ(net->value->fc1->weight.size(1), 64 + kScoreContext);
}

// Trained-looking (non-identity) norm affine parameters in `net`, drawn from the global RNG,
// then every parameter of `net` copied into `twin` (a network of the same shape).
void give_trained_norms(HydraNet& net, HydraNet& twin) {
  torch::NoGradGuard no_grad;
  for (auto& item : net->named_parameters())
    if (item.key().find("norm") != std::string::npos) item.value().add_(torch::randn_like(item.value()) * 0.3);
  const auto from = net->parameters();
  auto to = twin->parameters();
  for (std::size_t i = 0; i < to.size(); ++i) to[i].copy_(from[i]);
}

// The five heads of two forward passes side by side, named.
std::array<std::pair<const char*, std::pair<torch::Tensor, torch::Tensor>>, 5> head_pairs(const Outputs& a,
                                                                                         const Outputs& b) {
  return {{{"policy", {a.policy, b.policy}},
           {"value", {a.value, b.value}},
           {"grp", {a.grp, b.grp}},
           {"tenpai", {a.tenpai, b.tenpai}},
           {"danger", {a.danger, b.danger}}}};
}

// bf16 autocast vs fp32 on the same weights and input. Tolerance: 5% of each head's largest
// fp32 magnitude (bf16 keeps 8 significant bits, ~0.4% per op, through 4 blocks) and 0.02 on
// policy probabilities. With bf16_norm the trunk's norms run on bf16 too (model.bf16_norm).
void compare_autocast(torch::Device device, bool bf16_norm = false, bool norm_as_groups = false) {
  auto cfg = testing::tiny_config(4);
  cfg.channels = 64;
  cfg.bf16_norm = bf16_norm;
  cfg.norm_as_groups = norm_as_groups;
  HydraNet net(cfg);
  net->init_weights(11);
  net->to(device);
  torch::manual_seed(5);
  const auto batch = testing::random_batch(16);
  const auto obs = batch.obs.to(device), ctx = batch.ctx.to(device), legal = batch.targets.legal.to(device);
  torch::NoGradGuard no_grad;
  const auto ref = net->forward(obs, ctx);
  Outputs low;
  {
    AutocastGuard autocast(device.type(), true);
    low = net->forward(obs, ctx);
  }
  EXPECT_EQ(low.policy.scalar_type(), torch::kBFloat16);  // autocast really ran the heads in bf16
  EXPECT_EQ(net->stem->weight.scalar_type(), torch::kFloat);  // master weights stay fp32
  low = low.to_float();
  for (const auto& [name, pair] : head_pairs(ref, low)) {
    const double err = ((pair.first - pair.second).abs().max() / pair.first.abs().max()).item<double>();
    std::printf("%s bf16 autocast: %-6s max |bf16 - fp32| / max |fp32| = %.3e\n", device.str().c_str(), name, err);
    EXPECT_LT(err, 0.05) << name;
  }
  const double prob_err =
      (masked_softmax(ref.policy, legal) - masked_softmax(low.policy, legal)).abs().max().item<double>();
  std::printf("%s bf16 autocast: policy probabilities max abs diff = %.3e\n", device.str().c_str(), prob_err);
  EXPECT_LT(prob_err, 0.02);
}

TEST(Precision, CpuBf16AutocastMatchesFp32) { compare_autocast(torch::kCPU); }

TEST(Precision, CudaBf16AutocastMatchesFp32) {
  if (!torch::cuda::is_available()) GTEST_SKIP() << "no CUDA device";
  compare_autocast(torch::kCUDA);
}

TEST(Precision, Bf16NormsMatchFp32) { compare_autocast(torch::kCPU, /*bf16_norm=*/true); }

TEST(Precision, CudaBf16NormsMatchFp32) {
  if (!torch::cuda::is_available()) GTEST_SKIP() << "no CUDA device";
  compare_autocast(torch::kCUDA, /*bf16_norm=*/true);
  compare_autocast(torch::kCUDA, /*bf16_norm=*/true, /*norm_as_groups=*/true);
}

TEST(Precision, Bf16NormsAsGroupsMatchFp32) { compare_autocast(torch::kCPU, true, /*norm_as_groups=*/true); }

// Another way of computing the trunk's norms (`set` switches it on) is the same function: in
// fp32 the outputs and every parameter's gradient agree with torch's GroupNorm + Mish to float
// rounding, with trained-looking (non-identity) affine parameters. The other path really runs:
// `op` is called once per trunk norm (two a block and the last), and aten::group_norm as often
// (`uses_group_norm`) or never.
void expect_same_function(void (*set)(config::ModelConfig&), const char* op, bool uses_group_norm) {
  auto cfg = testing::tiny_config(2);
  cfg.channels = 64;  // 2 channels a group
  HydraNet plain(cfg);
  set(cfg);
  HydraNet other(cfg);
  plain->init_weights(8);
  torch::manual_seed(9);
  give_trained_norms(plain, other);
  const auto batch = testing::random_batch(8);
  const auto a = plain->forward(batch.obs, batch.ctx);
  Outputs b;
  const auto profile = profile_device([&] { b = other->forward(batch.obs, batch.ctx); }, torch::kCPU, "", 1000);
  const auto calls = [&](const std::string& name) {
    const auto it = std::find_if(profile.top.begin(), profile.top.end(), [&](const ProfiledName& n) { return n.name == name; });
    return it == profile.top.end() ? std::int64_t{0} : static_cast<std::int64_t>(it->calls);
  };
  EXPECT_EQ(calls(op), 2 * cfg.blocks + 1);
  EXPECT_EQ(calls("aten::group_norm"), uses_group_norm ? 2 * cfg.blocks + 1 : 0);
  for (const auto& [name, pair] : head_pairs(a, b))
    EXPECT_LT((pair.first - pair.second).abs().max().item<double>(), 1e-4 * std::max(1.0, pair.first.abs().max().item<double>()))
        << name;
  (a.value.sum() + a.policy.logsumexp(1).sum()).backward();
  (b.value.sum() + b.policy.logsumexp(1).sum()).backward();
  const auto ga = plain->named_parameters(), gb = other->named_parameters();
  for (std::size_t i = 0; i < ga.size(); ++i) {
    const auto& x = ga[i].value().grad();
    const auto& y = gb[i].value().grad();
    ASSERT_EQ(x.defined(), y.defined()) << ga[i].key();
    if (!x.defined()) continue;
    const double scale = std::max(1e-3, x.abs().max().item<double>());
    EXPECT_LT((x - y).abs().max().item<double>() / scale, 1e-3) << ga[i].key();
  }
}

// model.norm_as_groups: one row per group, then the per-channel affine (one addcmul a norm).
TEST(Network, NormAsGroupsIsTheSameFunction) {
  expect_same_function([](config::ModelConfig& m) { m.norm_as_groups = true; }, "aten::addcmul", true);
}

// model.fused_norm on the CPU: the kernels' formulas in LibTorch ops (one rsqrt of the variances a
// norm); its backward is Hydra's own, not autograd's.
TEST(Network, FusedNormIsTheSameFunction) {
  expect_same_function([](config::ModelConfig& m) { m.fused_norm = true; }, "aten::rsqrt", false);
}

// The fused function against LibTorch's GroupNorm + Mish on its own, as `hydra check` measures the
// CUDA kernels: output and the gradients of x, weight and bias over the reference's largest
// magnitude, fp32 and bf16 tensors (the reference in fp32 on the same rounded input).
TEST(FusedNorm, CpuFormulasMatchLibTorch) {
  const double fp32 = fused_norm_error(torch::kCPU, torch::kFloat, 8, 64, 3);
  const double bf16 = fused_norm_error(torch::kCPU, torch::kBFloat16, 8, 64, 3);
  std::printf("fused norm on the CPU: fp32 %.3e, bf16 %.3e\n", fp32, bf16);
  EXPECT_LT(fp32, 1e-5);
  EXPECT_LT(bf16, 0.02);
}

TEST(FusedNorm, CudaKernelsMatchLibTorch) {
  if (!torch::cuda::is_available()) GTEST_SKIP() << "no CUDA device";
  if (!fused_norm_kernels()) GTEST_SKIP() << "this build has no CUDA kernels";
  for (const int channels : {64, 256}) {
    EXPECT_LT(fused_norm_error(torch::kCUDA, torch::kFloat, 256, channels, 3), 1e-4) << channels;
    EXPECT_LT(fused_norm_error(torch::kCUDA, torch::kBFloat16, 256, channels, 3), 0.02) << channels;
  }
}

TEST(FusedNorm, RejectsChannelsNotAMultipleOfTheGroups) {
  const auto x = torch::zeros({2, 48, 34});
  EXPECT_THROW(fused_norm_mish(x, torch::ones({48}), torch::zeros({48}), 32, 1e-5), Error);
}

// model.bf16_norm changes only what autocast computes: in fp32 the two networks are the same
// function; under autocast the norms really take the other path, and the gradients reach the
// fp32 norm parameters through their bf16 copies. (CPU autocast already runs GroupNorm on bf16
// input with fp32 affine parameters, so here the paths differ in the rounding of those; on CUDA,
// where autocast runs the norm in fp32, they differ in much more.)
TEST(Precision, Bf16NormsOnlyUnderAutocast) {
  auto cfg = testing::tiny_config(2);
  cfg.channels = 64;
  HydraNet plain(cfg);
  cfg.bf16_norm = true;
  HydraNet low(cfg);
  plain->init_weights(4);
  low->init_weights(4);
  torch::manual_seed(6);
  give_trained_norms(plain, low);  // the identity init is exact in bf16
  const auto batch = testing::random_batch(8);
  {
    torch::NoGradGuard no_grad;
    EXPECT_TRUE(torch::equal(plain->forward(batch.obs, batch.ctx).value, low->forward(batch.obs, batch.ctx).value));
  }
  AutocastGuard autocast(torch::kCPU, true);
  const auto a = plain->forward(batch.obs, batch.ctx), b = low->forward(batch.obs, batch.ctx);
  EXPECT_FALSE(torch::equal(a.policy, b.policy)) << "bf16 norms round differently from fp32 norms";
  b.value.to(torch::kFloat).sum().backward();
  const auto& norm = low->blocks[0]->as<SEResBlockImpl>()->norm1;
  ASSERT_TRUE(norm->weight.grad().defined());
  EXPECT_EQ(norm->weight.grad().scalar_type(), torch::kFloat);
  EXPECT_TRUE(torch::isfinite(norm->weight.grad()).all().item<bool>());
  EXPECT_GT(norm->weight.grad().abs().sum().item<double>(), 0.0);
}

TEST(Precision, GuardRestoresState) {
  EXPECT_FALSE(at::autocast::is_autocast_enabled(torch::kCPU));
  {
    AutocastGuard outer(torch::kCPU, true);
    { AutocastGuard off(torch::kCPU, false); EXPECT_TRUE(at::autocast::is_autocast_enabled(torch::kCPU)); }
    EXPECT_TRUE(at::autocast::is_autocast_enabled(torch::kCPU));
  }
  EXPECT_FALSE(at::autocast::is_autocast_enabled(torch::kCPU));
  config::ModelConfig c;
  EXPECT_TRUE(autocast_enabled(c, torch::kCUDA));
  EXPECT_FALSE(autocast_enabled(c, torch::kCPU));
}

}  // namespace
}  // namespace hydra::model
