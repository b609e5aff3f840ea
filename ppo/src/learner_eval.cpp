// The learner's passes over a rollout that do not step (learner.hpp): the policy over all
// actions, a critic's values, the log-probabilities of the actions taken and the objective.

#include <algorithm>
#include <vector>

#include "hydra/model/losses.hpp"
#include "hydra/model/precision.hpp"
#include "hydra/ppo/estimator.hpp"
#include "hydra/ppo/learner.hpp"
#include "passes.hpp"

namespace hydra::ppo {

torch::Tensor Learner::policy_probs(const RolloutTensors& data) {
  torch::NoGradGuard no_grad;
  const std::int64_t n = data.size();
  const bool autocast = model::autocast_enabled(cfg_.model, device_.type());
  std::vector<torch::Tensor> parts;
  for (std::int64_t lo = 0; lo < n; lo += cfg_.ppo.minibatch) {
    const std::int64_t hi = std::min<std::int64_t>(n, lo + cfg_.ppo.minibatch);
    const auto b = data.select(torch::arange(lo, hi, torch::kLong)).to(device_);
    const auto logits = tempered(forward(*net_, b, device_.type(), autocast).policy.to(torch::kFloat), cfg_.temperature);
    parts.push_back(torch::where(b.legal, model::masked_log_softmax(logits, b.legal).exp(), torch::zeros_like(logits))
                        .cpu());
  }
  if (parts.empty()) return torch::zeros({0, model::kActions});
  return torch::cat(parts);
}

torch::Tensor Learner::critic_values(const selfplay::Rollout& rollout) {
  return estimator_->critic_values(rollout_tensors(rollout));
}

torch::Tensor Learner::log_probs(const selfplay::Rollout& rollout) {
  torch::NoGradGuard no_grad;
  const auto data = rollout_tensors(rollout).to(device_);
  const std::int64_t n = data.size();
  const bool autocast = model::autocast_enabled(cfg_.model, device_.type());
  std::vector<torch::Tensor> parts;
  for (std::int64_t lo = 0; lo < n; lo += cfg_.ppo.minibatch) {
    const auto idx = torch::arange(lo, std::min<std::int64_t>(n, lo + cfg_.ppo.minibatch),
                                   torch::TensorOptions().dtype(torch::kLong).device(device_));
    const auto b = data.select(idx);
    const auto out = forward(*net_, b, device_.type(), autocast);
    parts.push_back(model::masked_log_softmax(tempered(out.policy, cfg_.temperature), b.legal).gather(1, b.action.unsqueeze(1)).squeeze(1));
  }
  if (parts.empty()) return torch::zeros({0});
  return torch::cat(parts).cpu();
}

double Learner::loss(const selfplay::Rollout& rollout, std::int64_t coef_update) {
  torch::NoGradGuard no_grad;
  UpdateStats unused;
  const auto data = prepare(rollout, /*observe=*/false, unused);
  const std::int64_t n = data.size();
  const auto settings = settings_for(coef_update);
  const bool autocast = model::autocast_enabled(cfg_.model, device_.type());
  // The same minibatch sizes as update() (equal within one), in rollout order.
  const std::int64_t batches = std::max<std::int64_t>(1, n / cfg_.ppo.minibatch);
  double sum = 0;
  for (std::int64_t k = 0; k < batches; ++k) {
    const auto idx = torch::arange(k * n / batches, (k + 1) * n / batches,
                                   torch::TensorOptions().dtype(torch::kLong).device(device_));
    const auto b = data.select(idx);
    LossInput in = loss_input(*net_, b, device_.type(), autocast);
    if (has_anchor() && !settings.value_only) in.anchor_logits = forward(*anchor_, b, device_.type(), autocast).policy;
    sum += ppo_loss(in, settings).total.item<double>();
  }
  return sum / static_cast<double>(batches);
}

}  // namespace hydra::ppo
