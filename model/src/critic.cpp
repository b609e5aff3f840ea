#include "hydra/model/critic.hpp"

#include <algorithm>
#include <cmath>

#include <ATen/CPUGeneratorImpl.h>

#include "hydra/common/error.hpp"
#include "hydra/model/mish.hpp"
#include "layers.hpp"

namespace hydra::model {

CriticNetImpl::CriticNetImpl(const CriticConfig& config) : config_(config) {
  if (config.channels % detail::kGroups != 0)
    throw Error("ppo.critic_channels: " + std::to_string(config.channels) + " must be a multiple of 32 (GroupNorm(32))");
  reset();
}

void CriticNetImpl::reset() {
  const int c = config_.channels;
  stem = register_module("stem", detail::conv(kCriticInputChannels, c, 3, false));
  blocks = register_module("blocks", torch::nn::ModuleList());
  for (int i = 0; i < config_.blocks; ++i) blocks->push_back(SEResBlock(c, std::max(1, c / 16)));
  trunk_norm = register_module("trunk_norm", detail::group_norm(c));
  value = register_module("value", MlpHead(c + kScoreContext, config_.hidden, 1));
  init_weights(0);
}

void CriticNetImpl::init_weights(std::uint64_t seed) {
  torch::NoGradGuard no_grad;
  auto gen = at::detail::createCPUGenerator(seed);
  const double hidden = std::sqrt(2.0);
  detail::init_layer(*stem, hidden, gen);
  for (const auto& block : *blocks) {
    auto& b = *block->as<SEResBlockImpl>();
    detail::init_layer(*b.conv1, hidden, gen);
    detail::init_layer(*b.conv2, hidden, gen);
    detail::init_layer(*b.se_fc1, hidden, gen);
    detail::init_layer(*b.se_fc2, hidden, gen);
  }
  detail::init_layer(*value->fc1, hidden, gen);
  detail::init_layer(*value->fc2, 1.0, gen);
}

torch::Tensor CriticNetImpl::forward(const torch::Tensor& obs, const torch::Tensor& privileged,
                                     const torch::Tensor& score_context) {
  if (!privileged.defined()) throw Error("critic: a privileged critic needs the privileged planes");
  auto x = stem(torch::cat({obs, privileged.to(obs.scalar_type())}, 1));
  for (const auto& block : *blocks) x = block->as<SEResBlockImpl>()->forward(x);
  const auto z = model::mish(trunk_norm(x));
  return value(torch::cat({z.mean(-1), score_context.to(z.scalar_type())}, 1));
}

}  // namespace hydra::model
