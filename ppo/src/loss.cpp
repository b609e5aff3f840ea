#include "hydra/ppo/loss.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "hydra/common/error.hpp"
#include "hydra/model/losses.hpp"

namespace hydra::ppo {

torch::Tensor normalize_advantages(const torch::Tensor& advantage, double clip, const torch::Tensor& weight) {
  if (!weight.defined()) {
    const auto mean = advantage.mean();
    const auto sd = advantage.std(/*unbiased=*/false);
    return ((advantage - mean) / (sd + 1e-8)).clamp(-clip, clip);
  }
  const auto mean = model::weighted_mean(advantage, weight);
  const auto sd = model::weighted_mean((advantage - mean).pow(2), weight).sqrt();
  return ((advantage - mean) / (sd + 1e-8)).clamp(-clip, clip);
}

torch::Tensor tempered(const torch::Tensor& logits, double temperature) {
  return temperature == 1.0 ? logits : logits / temperature;
}

torch::Tensor masked_entropy(const torch::Tensor& logits, const torch::Tensor& legal) {
  const auto logp = model::masked_log_softmax(logits, legal);
  // where() rather than p * logp: an illegal p is exactly 0 but its logp is about -1e9, and the
  // product's gradient would still flow through the masked logit.
  const auto plogp = torch::where(legal, logp.exp() * logp, torch::zeros_like(logp));
  return -plogp.sum(-1);
}

torch::Tensor masked_kl(const torch::Tensor& logits, const torch::Tensor& anchor_logits,
                        const torch::Tensor& legal) {
  const auto logp = model::masked_log_softmax(logits, legal);
  const auto logq = model::masked_log_softmax(anchor_logits, legal);
  const auto terms = torch::where(legal, logp.exp() * (logp - logq), torch::zeros_like(logp));
  return terms.sum(-1);
}

namespace {

torch::Tensor tile_bits(const torch::Tensor& waits) {
  HYDRA_CHECK(waits.scalar_type() == torch::kLong && waits.dim() == 2, "wait masks must be [B,3] int64");
  const auto bits = torch::ones({model::kTiles}, waits.options()).bitwise_left_shift(
      torch::arange(model::kTiles, waits.options()));
  return waits.unsqueeze(-1).bitwise_and(bits).ne(0);  // [B,3,34] bool
}

}  // namespace

torch::Tensor tenpai_labels(const torch::Tensor& waits) {
  HYDRA_CHECK(waits.scalar_type() == torch::kLong, "wait masks must be int64");
  return waits.ne(0).to(torch::kFloat);
}

torch::Tensor danger_labels(const torch::Tensor& waits) { return tile_bits(waits).to(torch::kFloat); }

torch::Tensor expected_surrogate(const torch::Tensor& logp_all, const torch::Tensor& legal,
                                 const torch::Tensor& action_advantage, const torch::Tensor& old_probs, double clip) {
  // pi_old(a) r_a = pi(a): the unclipped term is pi(a) A_a itself. The ratio of the clipped term
  // is bounded before exp() so that an action pi_old gave (almost) no mass cannot overflow; where
  // it is clipped its gradient is 0 anyway. Illegal actions carry A = 0 and pi_old = 0.
  const auto old_logp = old_probs.clamp_min(1e-30).log();
  const auto log_ratio = torch::where(legal, logp_all - old_logp, torch::zeros_like(logp_all)).clamp_max(30.0);
  const auto ratio = log_ratio.exp();
  const auto probs = torch::where(legal, logp_all.exp(), torch::zeros_like(logp_all));
  const auto surrogate = probs * action_advantage;
  const auto clipped = old_probs * ratio.clamp(1.0 - clip, 1.0 + clip) * action_advantage;
  return torch::min(surrogate, clipped).sum(-1);
}

LossSettings LossSettings::from_config(const config::ModelConfig& model, const config::PpoConfig& ppo,
                                       double temperature) {
  LossSettings s;
  s.clip = ppo.clip;
  s.value_coef = ppo.value_coef;
  s.entropy_coef = ppo.entropy_start;
  s.entropy_target = ppo.entropy_target;
  s.kl_anchor_coef = ppo.kl_anchor_start;
  s.normalize_advantages = true;
  s.adv_clip = ppo.adv_clip;
  s.w_tenpai = model.w_tenpai * ppo.aux_coef;
  s.w_danger = model.w_danger * ppo.aux_coef;
  s.focal_alpha = model.focal_alpha;
  s.focal_gamma = model.focal_gamma;
  s.temperature = temperature;
  return s;
}

namespace {

// ppo_loss for one rank's part of a data-parallel minibatch (LossInput::reduce): every mean is a
// sum over this rank's samples divided by the whole minibatch's count, and every statistic that a
// decision depends on is summed over the ranks first.
// The tempered logits (the anchor's too) and the probability ratio of the taken actions.
struct PolicyParts {
  torch::Tensor logits, anchor_logits, logp_all, log_ratio, ratio;
};

PolicyParts policy_parts(const LossInput& in, const LossSettings& settings) {
  PolicyParts p;
  p.logits = tempered(in.out.policy, settings.temperature);
  if (in.anchor_logits.defined()) p.anchor_logits = tempered(in.anchor_logits, settings.temperature);
  p.logp_all = model::masked_log_softmax(p.logits, in.legal);
  const auto logp = p.logp_all.gather(1, in.action.unsqueeze(1)).squeeze(1);
  p.log_ratio = logp - in.old_logp;
  p.ratio = p.log_ratio.exp();
  return p;
}

// The auxiliary heads' losses through the model's own definitions, with PPO's weights (and the
// rows' weights as the labels' weights); null when the input carries no labels.
std::optional<model::Losses> aux_losses(const LossInput& in, const LossSettings& settings) {
  model::Targets aux;
  aux.tenpai = in.tenpai;
  aux.danger = in.danger;
  if (in.weight.defined()) {
    if (aux.tenpai.defined()) aux.tenpai_weight = in.weight.unsqueeze(1);
    if (aux.danger.defined()) aux.danger_weight = in.weight.view({-1, 1, 1});
  }
  if (!aux.tenpai.defined() && !aux.danger.defined()) return std::nullopt;
  config::ModelConfig weights;
  weights.w_tenpai = settings.w_tenpai;
  weights.w_danger = settings.w_danger;
  weights.focal_alpha = settings.focal_alpha;
  weights.focal_gamma = settings.focal_gamma;
  return model::compute_losses(in.out, aux, weights);
}

LossTerms ppo_loss_shard(const LossInput& in, const LossSettings& settings) {
  const double count = static_cast<double>(in.global_count);
  HYDRA_CHECK(in.global_count > 0, "ppo_loss: a data-parallel minibatch needs its global count");
  const double share = static_cast<double>(in.advantage.size(0)) / count;
  HYDRA_CHECK(!in.action_advantage.defined(), "ppo_loss: the expected policy gradient is not data-parallel");
  HYDRA_CHECK(!in.weight.defined(), "ppo_loss: row weights are not data-parallel");
  const auto [logits, anchor_logits, logp_all, log_ratio, ratio] = policy_parts(in, settings);
  LossTerms t;
  const auto entropy = masked_entropy(logits, in.legal);
  // First reduction: what the loss itself depends on (advantage moments, mean entropies).
  const auto adv64 = in.advantage.to(torch::kDouble);
  std::vector<torch::Tensor> pre{torch::stack({adv64.sum(), adv64.pow(2).sum(), entropy.detach().to(torch::kDouble).sum(),
                                               torch::zeros({}, adv64.options())})};
  if (settings.entropy_target < 0 && anchor_logits.defined()) {
    torch::NoGradGuard no_grad;
    pre[0][3] = masked_entropy(anchor_logits, in.legal).to(torch::kDouble).sum();
  }
  in.reduce(pre);
  const auto sums = pre[0].cpu();
  const double adv_mean = sums[0].item<double>() / count;
  const double adv_sd = std::sqrt(std::max(0.0, sums[1].item<double>() / count - adv_mean * adv_mean));
  const double mean_entropy = sums[2].item<double>() / count;
  auto adv = in.advantage;
  if (settings.normalize_advantages)
    adv = ((in.advantage - adv_mean) / (adv_sd + 1e-8)).clamp(-settings.adv_clip, settings.adv_clip);
  const auto surrogate = ratio * adv;
  const auto clipped = ratio.clamp(1.0 - settings.clip, 1.0 + settings.clip) * adv;
  t.policy = -torch::min(surrogate, clipped).sum() / count;
  t.value = model::value_loss(in.out.value, in.returns) * share;
  if (in.advantage.size(0) == 0) t.value = in.out.value.sum() * 0.0;  // mean of nothing: no NaN
  const auto entropy_part = entropy.sum() / count;
  double target = 0;
  bool has_target = false;
  if (settings.entropy_target > 0) {
    target = settings.entropy_target;
    has_target = true;
  } else if (settings.entropy_target < 0 && anchor_logits.defined()) {
    target = sums[3].item<double>() / count;
    has_target = true;
  }
  if (has_target) t.entropy_target = torch::full({}, target, entropy_part.options());
  // min(H, target) of the whole minibatch's mean: below the target the bonus is this rank's part
  // of -coef * H, above it nothing.
  const auto bonus = has_target && mean_entropy >= target ? entropy_part * 0.0 : entropy_part;
  t.entropy = entropy_part;
  t.total = t.policy + settings.value_coef * t.value - settings.entropy_coef * bonus;
  if (anchor_logits.defined()) {
    t.kl_anchor = masked_kl(logits, anchor_logits, in.legal).sum() / count;
    t.total = t.total + settings.kl_anchor_coef * t.kl_anchor;
  }
  if (in.advantage.size(0) > 0) {
    if (const auto l = aux_losses(in, settings)) {
      if (l->tenpai.defined()) t.tenpai = l->tenpai * share;
      if (l->danger.defined()) t.danger = l->danger * share;
      t.total = t.total + l->total * share;
    }
  } else {  // no samples here: the mean of nothing is this rank's share, 0
    if (in.tenpai.defined()) t.tenpai = torch::zeros({}, entropy_part.options());
    if (in.danger.defined()) t.danger = torch::zeros({}, entropy_part.options());
  }
  if (settings.value_only) t.total = settings.value_coef * t.value;
  {
    torch::NoGradGuard no_grad;
    const auto r = ratio.detach();
    const auto lr = log_ratio.detach();
    t.approx_kl = ((r - 1) - lr).sum() / count;
    t.clip_fraction = (r - 1).abs().gt(settings.clip).to(torch::kFloat).sum() / count;
  }
  // Second reduction: the reported terms become the whole minibatch's (the gradient flows from
  // `total`, which stays this rank's share).
  {
    torch::NoGradGuard no_grad;
    const auto zero = torch::zeros({}, entropy_part.options());
    const auto or_zero = [&](const torch::Tensor& x) { return x.defined() ? x.detach().to(torch::kFloat) : zero; };
    std::vector<torch::Tensor> post{torch::stack({or_zero(t.policy), or_zero(t.value), or_zero(t.entropy),
                                                  or_zero(t.kl_anchor), or_zero(t.tenpai), or_zero(t.danger),
                                                  or_zero(t.approx_kl), or_zero(t.clip_fraction)})};
    in.reduce(post);
    const auto g = post[0];
    const auto keep = [&](torch::Tensor& x, int i) {
      if (x.defined()) x = g[i].clone();
    };
    keep(t.policy, 0);
    keep(t.value, 1);
    keep(t.entropy, 2);
    keep(t.kl_anchor, 3);
    keep(t.tenpai, 4);
    keep(t.danger, 5);
    t.approx_kl = g[6].clone();
    t.clip_fraction = g[7].clone();
  }
  return t;
}

}  // namespace

LossTerms ppo_loss(const LossInput& in, const LossSettings& settings) {
  HYDRA_CHECK(in.out.policy.defined() && in.out.value.defined(), "ppo_loss: missing policy or value output");
  if (in.reduce) return ppo_loss_shard(in, settings);
  HYDRA_CHECK(in.action_advantage.defined() == in.old_probs.defined(),
              "ppo_loss: action advantages and pi_old over all actions come together");
  const auto [logits, anchor_logits, logp_all, log_ratio, ratio] = policy_parts(in, settings);
  const auto& w = in.weight;
  LossTerms t;
  if (in.action_advantage.defined()) {
    const auto surrogate = expected_surrogate(logp_all, in.legal, in.action_advantage, in.old_probs, settings.clip);
    t.policy = -model::weighted_mean(surrogate, w);
  } else {
    const auto adv = settings.normalize_advantages ? normalize_advantages(in.advantage, settings.adv_clip, w)
                                                   : in.advantage;
    const auto surrogate = ratio * adv;
    const auto clipped = ratio.clamp(1.0 - settings.clip, 1.0 + settings.clip) * adv;
    t.policy = -model::weighted_mean(torch::min(surrogate, clipped), w);
  }
  t.value = model::value_loss(in.out.value, in.returns, w);
  t.entropy = model::weighted_mean(masked_entropy(logits, in.legal), w);
  if (settings.entropy_target > 0) {
    t.entropy_target = torch::full({}, settings.entropy_target, t.entropy.options());
  } else if (settings.entropy_target < 0 && anchor_logits.defined()) {
    torch::NoGradGuard no_grad;
    t.entropy_target = model::weighted_mean(masked_entropy(anchor_logits, in.legal), w);
  }
  // Above the target min() passes no gradient: the bonus only resists a collapse, it never
  // pushes a policy that is already as random as the target back toward uniform.
  const auto bonus = t.entropy_target.defined() ? torch::min(t.entropy, t.entropy_target) : t.entropy;
  t.total = t.policy + settings.value_coef * t.value - settings.entropy_coef * bonus;
  if (anchor_logits.defined()) {
    t.kl_anchor = model::weighted_mean(masked_kl(logits, anchor_logits, in.legal), w);
    t.total = t.total + settings.kl_anchor_coef * t.kl_anchor;
  }
  if (const auto l = aux_losses(in, settings)) {
    t.tenpai = l->tenpai;
    t.danger = l->danger;
    t.total = t.total + l->total;
  }
  if (settings.value_only) t.total = settings.value_coef * t.value;
  {
    torch::NoGradGuard no_grad;
    const auto r = ratio.detach();
    const auto lr = log_ratio.detach();
    t.approx_kl = model::weighted_mean((r - 1) - lr, w);
    t.clip_fraction = model::weighted_mean((r - 1).abs().gt(settings.clip).to(torch::kFloat), w);
  }
  return t;
}

}  // namespace hydra::ppo
