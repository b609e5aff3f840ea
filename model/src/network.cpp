#include "hydra/model/network.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/autocast_mode.h>
#include <c10/core/impl/LocalDispatchKeySet.h>

#include "hydra/common/error.hpp"
#include "hydra/encoder/context.hpp"
#include "hydra/model/fused_norm.hpp"
#include "hydra/model/mish.hpp"
#include "layers.hpp"

namespace hydra::model {

namespace detail {

torch::nn::Conv1d conv(int in, int out, int kernel, bool bias) {
  return torch::nn::Conv1d(torch::nn::Conv1dOptions(in, out, kernel).padding(kernel / 2).bias(bias));
}

torch::nn::GroupNorm group_norm(int channels) {
  return torch::nn::GroupNorm(torch::nn::GroupNormOptions(kGroups, channels));
}

torch::Tensor norm_mish(torch::nn::GroupNorm norm, const torch::Tensor& x, NormSettings settings) {
  const auto& o = norm->options;
  if (settings.fused) {
    // One kernel each way, in the activations' type (bf16 under autocast) with fp32 arithmetic:
    // autocast has nothing to cast inside it.
    const c10::impl::ExcludeDispatchKeyGuard no_autocast(c10::autocast_dispatch_keyset);
    return fused_norm_mish(x, norm->weight, norm->bias, o.num_groups(), o.eps());
  }
  const bool low =
      settings.bf16 && x.scalar_type() == torch::kBFloat16 && at::autocast::is_autocast_enabled(x.device().type());
  if (!low && !settings.as_groups) return model::mish(norm(x));
  // CUDA autocast lists group_norm among the ops it runs in fp32: a cast of the activations up,
  // the norm and Mish on fp32 and a cast down for the next convolution, forward and backward.
  // Below autocast the same kernels read and write bf16.
  std::optional<c10::impl::ExcludeDispatchKeyGuard> no_autocast;
  if (low) no_autocast.emplace(c10::autocast_dispatch_keyset);
  const auto affine = [&](const torch::Tensor& p) { return low ? p.to(x.scalar_type()) : p; };
  if (!settings.as_groups)
    return model::mish(at::group_norm(x, o.num_groups(), affine(norm->weight), affine(norm->bias), o.eps(),
                                      /*cudnn_enabled=*/true));
  // Group g holds channels g*C/G .. (g+1)*C/G - 1, consecutive in memory with their tiles, so a
  // [batch, groups, C/G x tiles] view puts each group in one row: GroupNorm of that view with one
  // channel per group and no affine is the same normalisation.
  const auto channels = x.size(1);
  const auto y = at::group_norm(x.reshape({x.size(0), o.num_groups(), -1}), o.num_groups(), {}, {}, o.eps(),
                                /*cudnn_enabled=*/true)
                     .view(x.sizes());
  return model::mish(torch::addcmul(affine(norm->bias).view({channels, 1}), y, affine(norm->weight).view({channels, 1})));
}

// Orthogonal init as torch.nn.init.orthogonal_ does it (QR of a Gaussian matrix, signs fixed by
// R's diagonal), but drawn from an explicit generator in double precision on the CPU so the
// result does not depend on the device, the dtype or the global RNG.
void orthogonal(const torch::Tensor& weight, double gain, at::Generator& gen) {
  const auto rows = weight.size(0);
  const auto cols = weight.numel() / rows;
  auto flat = torch::empty({rows, cols}, torch::kDouble).normal_(0.0, 1.0, gen);
  if (rows < cols) flat = flat.t();
  auto [q, r] = torch::linalg_qr(flat);
  auto d = torch::diagonal(r).sign();
  d = torch::where(d == 0, torch::ones_like(d), d);  // a zero pivot keeps its column as is
  q = q * d;
  if (rows < cols) q = q.t();
  weight.copy_((q * gain).reshape(weight.sizes()));
}

void init_layer(torch::nn::Module& layer, double gain, at::Generator& gen) {
  for (auto& p : layer.named_parameters(/*recurse=*/false)) {
    if (p.key() == "weight") orthogonal(p.value(), gain, gen);
    else if (p.key() == "bias") p.value().zero_();
  }
}

}  // namespace detail

using detail::conv;
using detail::group_norm;
using detail::init_layer;

Outputs Outputs::to_float() const {
  return {policy.to(torch::kFloat), value.to(torch::kFloat), grp.to(torch::kFloat),
          tenpai.to(torch::kFloat), danger.to(torch::kFloat)};
}

SEResBlockImpl::SEResBlockImpl(int channels, int se_hidden, detail::NormSettings norms)
    : channels_(channels), se_hidden_(se_hidden), norms_(norms) {
  reset();
}

void SEResBlockImpl::reset() {
  norm1 = register_module("norm1", group_norm(channels_));
  conv1 = register_module("conv1", conv(channels_, channels_, 3, false));
  norm2 = register_module("norm2", group_norm(channels_));
  conv2 = register_module("conv2", conv(channels_, channels_, 3, false));
  se_fc1 = register_module("se_fc1", torch::nn::Linear(channels_, se_hidden_));
  se_fc2 = register_module("se_fc2", torch::nn::Linear(se_hidden_, channels_));
}

torch::Tensor SEResBlockImpl::forward(const torch::Tensor& x) {
  auto h = conv1(detail::norm_mish(norm1, x, norms_));
  h = conv2(detail::norm_mish(norm2, h, norms_));
  // Squeeze-excitation over the 34 tiles: average and max pool share one MLP; the two
  // excitations are summed before the sigmoid. amax is max's values without its indices (on the
  // CPU 7.7 times faster for [256, 64, 34]); tied maxima share their gradient evenly.
  auto excite = [&](const torch::Tensor& pooled) { return se_fc2(torch::relu(se_fc1(pooled))); };
  const auto gate = torch::sigmoid(excite(h.mean(-1)) + excite(h.amax(-1)));
  return x + h * gate.unsqueeze(-1);
}

MlpHeadImpl::MlpHeadImpl(int in, int hidden, int out) : in_(in), hidden_(hidden), out_(out) { reset(); }

void MlpHeadImpl::reset() {
  fc1 = register_module("fc1", torch::nn::Linear(in_, hidden_));
  fc2 = register_module("fc2", torch::nn::Linear(hidden_, out_));
}

torch::Tensor MlpHeadImpl::forward(const torch::Tensor& x) { return fc2(model::mish(fc1(x))); }

PolicyHeadImpl::PolicyHeadImpl(int channels, int policy_channels)
    : channels_(channels), policy_channels_(policy_channels) {
  reset();
}

void PolicyHeadImpl::reset() {
  conv = register_module("conv", detail::conv(channels_, policy_channels_, 1, true));
  fc = register_module("fc", torch::nn::Linear(policy_channels_ * kTiles, kActions));
}

torch::Tensor PolicyHeadImpl::forward(const torch::Tensor& latent) {
  return fc(model::mish(conv(latent)).flatten(1));
}

HydraNetImpl::HydraNetImpl(const config::ModelConfig& config) : config_(config) {
  if (config.channels % detail::kGroups != 0)
    throw Error("model.channels: " + std::to_string(config.channels) + " must be a multiple of 32 (GroupNorm(32))");
  reset();
}

void HydraNetImpl::reset() {
  const int c = config_.channels;
  stem = register_module("stem", conv(kObsChannels, c, 3, false));
  blocks = register_module("blocks", torch::nn::ModuleList());
  const int se_hidden = std::max(1, c / config_.se_ratio);
  for (int i = 0; i < config_.blocks; ++i) blocks->push_back(SEResBlock(c, se_hidden, norms()));
  trunk_norm = register_module("trunk_norm", group_norm(c));
  policy = register_module("policy", PolicyHead(c, config_.policy_channels));
  value = register_module("value", MlpHead(c + kScoreContext, config_.value_hidden, 1));
  grp = register_module("grp", MlpHead(c + kScoreContext, config_.grp_hidden, kRankPerms));
  tenpai = register_module("tenpai", MlpHead(c, config_.tenpai_hidden, kOpponents));
  danger = register_module("danger", conv(c, kOpponents, 1, true));
  init_weights(0);
}

detail::NormSettings HydraNetImpl::norms() const { return {config_.bf16_norm, config_.norm_as_groups, config_.fused_norm}; }

void HydraNetImpl::init_weights(std::uint64_t seed) {
  torch::NoGradGuard no_grad;
  auto gen = at::detail::createCPUGenerator(seed);
  const double hidden = std::sqrt(2.0);
  constexpr double kHeadOut = 0.01;  // policy and aux head outputs start near uniform
  init_layer(*stem, hidden, gen);
  for (const auto& block : *blocks) {
    auto& b = *block->as<SEResBlockImpl>();
    init_layer(*b.conv1, hidden, gen);
    init_layer(*b.conv2, hidden, gen);
    init_layer(*b.se_fc1, hidden, gen);
    init_layer(*b.se_fc2, hidden, gen);
  }
  init_layer(*policy->conv, hidden, gen);
  init_layer(*policy->fc, kHeadOut, gen);
  init_layer(*value->fc1, hidden, gen);
  init_layer(*value->fc2, 1.0, gen);
  init_layer(*grp->fc1, hidden, gen);
  init_layer(*grp->fc2, kHeadOut, gen);
  init_layer(*tenpai->fc1, hidden, gen);
  init_layer(*tenpai->fc2, kHeadOut, gen);
  init_layer(*danger, kHeadOut, gen);
  // GroupNorm keeps its identity init (weight 1, bias 0) from construction.
}

Outputs HydraNetImpl::forward(const torch::Tensor& obs, const torch::Tensor& score_context) {
  auto x = stem(obs);
  for (const auto& block : *blocks) x = block->as<SEResBlockImpl>()->forward(x);
  const auto latent = detail::norm_mish(trunk_norm, x, norms());  // [B,C,34]
  const auto pooled = latent.mean(-1);         // [B,C]
  // The value and GRP heads see the score context beside the pooled latent: both predict what the
  // scores and the round decide, which reach the trunk only as constant planes that GroupNorm
  // mostly removes. Under autocast the context follows the latent's dtype so the concatenation
  // is well-typed.
  const auto with_context = torch::cat({pooled, score_context.to(pooled.scalar_type())}, 1);
  return {policy(latent), value(with_context), grp(with_context), tenpai(pooled), danger(latent)};
}

std::vector<std::pair<std::string, std::int64_t>> component_parameters(const torch::nn::Module& net) {
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (const auto& child : net.named_children()) out.emplace_back(child.key(), count_parameters(*child.value()));
  return out;
}

std::int64_t count_parameters(const torch::nn::Module& net) {
  std::int64_t n = 0;
  for (const auto& p : net.parameters()) n += p.numel();
  return n;
}

std::array<float, kScoreContext> score_context(const std::array<int, 4>& scores, int round, int honba) {
  return encoder::score_context(scores, round, honba);
}

}  // namespace hydra::model
