#pragma once

// What one PPO update did (Learner::update): losses, monitoring values and the gradient noise
// scale, and their metric tags.

#include <cstdint>

#include "hydra/common/metrics.hpp"

namespace hydra::ppo {

// What one update did. Losses and monitoring values are means over the minibatches stepped.
struct UpdateStats {
  std::int64_t update = 0;       // 0-based index of this update
  std::int64_t samples = 0;      // decisions in the rollout (every rank's, data-parallel)
  std::int64_t learned_rows = 0;  // ppo.unplayed_share < 1: the decisions the learner's passes kept
  std::int64_t epochs = 0;       // epochs started (the last may be cut by kl_stop)
  std::int64_t minibatches = 0;  // optimizer steps taken
  double policy_loss = 0;        // clipped surrogate loss
  double value_loss = 0;         // MSE to the GAE returns (normalised reward units)
  double entropy = 0;            // mean entropy of the masked policy, nats
  double approx_kl = 0;          // mean over minibatches of E[(r - 1) - log r] before each step
  double approx_kl_first = 0;    // approx-KL after the first epoch (chooses epochs vs epochs_high_kl)
  // approx-KL of the first minibatch before any step: the learner's policy against the actors'
  // log pi_old on the same decisions. About 0 when both compute the same policy (bf16 autocast
  // on other batch shapes, another device, another thread); far from 0 means they disagree.
  double approx_kl_start = 0;
  double clip_fraction = 0;      // share of samples whose ratio left [1 - clip, 1 + clip]
  double explained_variance = 0; // of the baseline (V_old or the critic's V) against the GAE returns
  // The same against the Monte Carlo returns (the rewards to the episode's end, lambda = 1): it
  // does not lean on the baseline itself, so runs with different baselines and lambdas compare.
  double explained_variance_mc = 0;
  double critic_loss = 0;        // MSE of the privileged critic to the returns (0 without one)
  // The expected form of play-outs: the pi-weighted std of the action advantages over the rollout
  // (normalised reward units) before they are scaled to 1; 0 otherwise.
  double action_adv_std = 0;
  double tenpai_loss = 0;
  double danger_loss = 0;
  double kl_anchor = 0;          // KL(pi || anchor); 0 without an anchor
  double kl_anchor_coef = 0;
  double grad_norm = 0;          // total gradient norm before clipping
  double lr = 0;
  double entropy_coef = 0;
  double entropy_target = 0;     // mean entropy target of the bonus (nats); 0 without one
  bool value_warmup = false;     // only the value head learned (ppo.value_warmup)
  double reward_std = 1;         // running return std the rewards were divided by (1: off)
  double adv_mean = 0;           // raw advantage (GAE or paired) mean and std over the rollout
  double adv_std = 0;
  double paired_share = 0;       // play-outs: share of decisions played out (carrying an advantage)
  // Gradient noise scale (ppo.noise_batch > 0, not on warm-up updates): unbiased estimates of
  // |G|^2, the squared norm of the true policy gradient, and tr(Sigma), the trace of the
  // per-decision gradient covariance, from chunks of the rollout; their ratio (of means over
  // many updates) is the decisions per update at which the gradient is half signal.
  bool noise_measured = false;
  double grad_signal = 0;
  double grad_noise = 0;
  double grad_signal_halves = 0;  // <g_A, g_B> of two halves of different games: |G|^2 again
  double grad_cos_halves = 0;     // their cosine
  std::int64_t noise_chunks = 0;  // chunks of whole games the estimate used
  double seconds = 0;            // wall time of update()
  bool kl_stopped = false;       // kl_stop ended the epochs early

  // Tags: loss/policy, loss/value, loss/entropy, loss/tenpai, loss/danger, loss/kl_anchor,
  // ppo/approx_kl, ppo/approx_kl_first, ppo/approx_kl_start, ppo/clip_fraction, ppo/explained_variance,
  // ppo/explained_variance_mc, loss/critic, ppo/action_adv_std (the expected form of play-outs),
  // ppo/grad_norm, ppo/lr, ppo/entropy_coef, ppo/kl_anchor_coef, ppo/entropy_target,
  // ppo/value_warmup, ppo/reward_std, ppo/adv_mean,
  // ppo/adv_std, ppo/paired_share, ppo/epochs, ppo/minibatches, ppo/samples, ppo/kl_stopped, perf/update_seconds,
  // perf/learner_samples_per_s; ppo/grad_signal, ppo/grad_noise, ppo/grad_signal_halves,
  // ppo/grad_cos_halves and ppo/noise_chunks when noise_measured.
  metrics::Scalars scalars() const;
};

}  // namespace hydra::ppo
