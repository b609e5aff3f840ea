// The metric tags of an update (update_stats.hpp).

#include "hydra/ppo/update_stats.hpp"

namespace hydra::ppo {

metrics::Scalars UpdateStats::scalars() const {
  const double rate = seconds > 0 ? static_cast<double>(samples) / seconds : 0.0;
  metrics::Scalars out{
      {"loss/policy", policy_loss},
      {"loss/value", value_loss},
      {"loss/entropy", entropy},
      {"loss/tenpai", tenpai_loss},
      {"loss/danger", danger_loss},
      {"loss/kl_anchor", kl_anchor},
      {"ppo/approx_kl", approx_kl},
      {"ppo/approx_kl_first", approx_kl_first},
      {"ppo/approx_kl_start", approx_kl_start},
      {"ppo/clip_fraction", clip_fraction},
      {"ppo/explained_variance", explained_variance},
      {"ppo/explained_variance_mc", explained_variance_mc},
      {"ppo/grad_norm", grad_norm},
      {"ppo/lr", lr},
      {"ppo/entropy_coef", entropy_coef},
      {"ppo/kl_anchor_coef", kl_anchor_coef},
      {"ppo/entropy_target", entropy_target},
      {"ppo/value_warmup", value_warmup ? 1.0 : 0.0},
      {"ppo/reward_std", reward_std},
      {"ppo/adv_mean", adv_mean},
      {"ppo/adv_std", adv_std},
      {"ppo/paired_share", paired_share},
      {"ppo/epochs", static_cast<double>(epochs)},
      {"ppo/minibatches", static_cast<double>(minibatches)},
      {"ppo/samples", static_cast<double>(samples)},
      {"ppo/kl_stopped", kl_stopped ? 1.0 : 0.0},
      {"perf/update_seconds", seconds},
      {"perf/learner_samples_per_s", rate},
  };
  if (critic_loss > 0) out.emplace_back("loss/critic", critic_loss);
  if (action_adv_std > 0) out.emplace_back("ppo/action_adv_std", action_adv_std);
  if (learned_rows > 0) out.emplace_back("ppo/learned_rows", static_cast<double>(learned_rows));
  if (noise_measured) {
    out.emplace_back("ppo/grad_signal", grad_signal);
    out.emplace_back("ppo/grad_noise", grad_noise);
    out.emplace_back("ppo/grad_signal_halves", grad_signal_halves);
    out.emplace_back("ppo/grad_cos_halves", grad_cos_halves);
    out.emplace_back("ppo/noise_chunks", static_cast<double>(noise_chunks));
  }
  return out;
}

}  // namespace hydra::ppo
