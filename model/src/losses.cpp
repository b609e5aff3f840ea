#include "hydra/model/losses.hpp"

#include "hydra/common/error.hpp"

namespace hydra::model {

namespace F = torch::nn::functional;

torch::Tensor weighted_mean(const torch::Tensor& values, const torch::Tensor& weight) {
  if (!weight.defined()) return values.mean();
  // Row weights in float keep a bf16 loss's weighted sum in float (a 0/1 mask takes the values' type).
  const auto w = weight.to(c10::promoteTypes(values.scalar_type(), weight.scalar_type())).expand_as(values);
  return (values * w).sum() / w.sum().clamp_min(1.0);
}

torch::Tensor masked_logits(const torch::Tensor& logits, const torch::Tensor& legal) {
  HYDRA_CHECK(legal.scalar_type() == torch::kBool, "legal mask must be bool");
  return logits.masked_fill(legal.logical_not(), kIllegalLogit);
}

torch::Tensor masked_softmax(const torch::Tensor& logits, const torch::Tensor& legal) {
  // The second fill keeps illegal entries at exactly 0 even if every legal logit were itself
  // near kIllegalLogit.
  return torch::softmax(masked_logits(logits, legal), -1).masked_fill(legal.logical_not(), 0.0);
}

torch::Tensor masked_log_softmax(const torch::Tensor& logits, const torch::Tensor& legal) {
  return torch::log_softmax(masked_logits(logits, legal), -1);
}

torch::Tensor policy_loss(const torch::Tensor& logits, const torch::Tensor& legal, const torch::Tensor& target) {
  return -masked_log_softmax(logits, legal).gather(1, target.unsqueeze(1)).mean();
}

torch::Tensor value_loss(const torch::Tensor& value, const torch::Tensor& target, const torch::Tensor& weight) {
  return weighted_mean((value.reshape(target.sizes()) - target.to(value.scalar_type())).pow(2), weight);
}

torch::Tensor grp_loss(const torch::Tensor& logits, const torch::Tensor& target) {
  return -torch::log_softmax(logits, -1).gather(1, target.unsqueeze(1)).mean();
}

torch::Tensor bce_loss(const torch::Tensor& logits, const torch::Tensor& target, const torch::Tensor& weight) {
  const auto t = target.to(logits.scalar_type());
  // -[t log s(x) + (1 - t) log s(-x)], both terms from log-sigmoid.
  const auto per = -(t * F::logsigmoid(logits) + (1 - t) * F::logsigmoid(-logits));
  return weighted_mean(per, weight);
}

torch::Tensor focal_loss(const torch::Tensor& logits, const torch::Tensor& target, double alpha,
                         double gamma, const torch::Tensor& weight) {
  const auto t = target.to(logits.scalar_type());
  const auto log_p = F::logsigmoid(logits);    // log p(positive)
  const auto log_q = F::logsigmoid(-logits);   // log p(negative)
  const auto log_pt = t * log_p + (1 - t) * log_q;
  const auto pt = log_pt.exp();
  const auto alpha_t = t * alpha + (1 - t) * (1 - alpha);
  const auto per = -alpha_t * (1 - pt).pow(gamma) * log_pt;
  return weighted_mean(per, weight);
}

Losses compute_losses(const Outputs& out, const Targets& targets, const config::ModelConfig& config) {
  Losses l;
  l.total = torch::zeros({}, out.policy.options());
  if (targets.action.defined()) {
    if (!targets.legal.defined()) throw Error("policy loss needs the legal mask");
    if (targets.policy_target.defined() || targets.policy_weight.defined()) {
      const auto log_p = masked_log_softmax(out.policy, targets.legal);
      auto per_row = targets.policy_target.defined()
                         ? -(targets.policy_target.to(log_p.scalar_type()) * log_p).sum(1)
                         : -log_p.gather(1, targets.action.unsqueeze(1)).squeeze(1);
      if (targets.policy_weight.defined()) per_row = per_row * targets.policy_weight.to(per_row.scalar_type());
      l.policy = per_row.mean();
    } else {
      l.policy = policy_loss(out.policy, targets.legal, targets.action);
    }
    l.total = l.total + config.w_policy * l.policy;
  }
  if (targets.value.defined()) {
    l.value = value_loss(out.value, targets.value);
    l.total = l.total + config.w_value * l.value;
  }
  if (targets.grp.defined()) {
    l.grp = grp_loss(out.grp, targets.grp);
    l.total = l.total + config.w_grp * l.grp;
  }
  if (targets.tenpai.defined()) {
    l.tenpai = bce_loss(out.tenpai, targets.tenpai, targets.tenpai_weight);
    l.total = l.total + config.w_tenpai * l.tenpai;
  }
  if (targets.danger.defined()) {
    l.danger = focal_loss(out.danger, targets.danger, config.focal_alpha, config.focal_gamma, targets.danger_weight);
    l.total = l.total + config.w_danger * l.danger;
  }
  return l;
}

}  // namespace hydra::model
