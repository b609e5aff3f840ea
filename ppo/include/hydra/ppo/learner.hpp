#pragma once

// The PPO learner (docs/PPO.md): owns the training network, AdamW and the
// learning-rate schedule, and runs one PPO update per rollout. The actors evaluate a cloned
// snapshot of net(); the trainer (trainer*.hpp) drives collection, checkpoints and metrics.

#include <cstdint>
#include <memory>
#include <string>

#include <torch/torch.h>

#include "hydra/common/config.hpp"
#include "hydra/common/metrics.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/model/checkpoint.hpp"
#include "hydra/model/critic.hpp"
#include "hydra/model/distributed.hpp"
#include "hydra/model/grad_buckets.hpp"
#include "hydra/model/network.hpp"
#include "hydra/model/optim.hpp"
#include "hydra/ppo/batch.hpp"
#include "hydra/ppo/loss.hpp"
#include "hydra/ppo/reward_norm.hpp"
#include "hydra/selfplay/rollout.hpp"

namespace hydra::ppo {

// What one update did. Losses and monitoring values are means over the minibatches stepped.
struct UpdateStats {
  std::int64_t update = 0;       // 0-based index of this update
  std::int64_t samples = 0;      // decisions in the rollout (every rank's, data-parallel)
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
  double critic_loss = 0;        // MSE of the critic to the returns (0 without one; with action values plus D's)
  // ppo.policy_gradient = expected: the pi-weighted std of the critic's action advantages over
  // the rollout (normalised reward units) before they are scaled to 1; 0 otherwise.
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
  double paired_share = 0;       // ppo.advantage = paired: share of decisions with a paired advantage
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
  // ppo/explained_variance_mc, loss/critic, ppo/action_adv_std (expected policy gradient),
  // ppo/grad_norm, ppo/lr, ppo/entropy_coef, ppo/kl_anchor_coef, ppo/entropy_target,
  // ppo/value_warmup, ppo/reward_std, ppo/adv_mean,
  // ppo/adv_std, ppo/paired_share, ppo/epochs, ppo/minibatches, ppo/samples, ppo/kl_stopped, perf/update_seconds,
  // perf/learner_samples_per_s; ppo/grad_signal, ppo/grad_noise, ppo/grad_signal_halves,
  // ppo/grad_cos_halves and ppo/noise_chunks when noise_measured.
  metrics::Scalars scalars() const;
};

// The KL anchor checkpoint of a config: ppo.anchor, or ppo.init when ppo.anchor is empty; ""
// (no anchor) when ppo.anchor is "none" or neither is set.
std::string anchor_file(const config::PpoConfig& ppo);

// What the learner reads of a run's config.
struct LearnerConfig {
  config::ModelConfig model;
  config::PpoConfig ppo;
  // selfplay.temperature: the learner trains the tempered policy the actors sample (ppo::tempered).
  double temperature = 1.0;
  // train.max_updates: the length of the learning-rate and coefficient schedules.
  std::int64_t max_updates = 1000;
};
LearnerConfig learner_config(const config::Config& cfg);

class Learner {
 public:
  // Network from cfg.model, initialised by init_weights with the first 8 bytes (little-endian)
  // of stream_key(master, labels::network_init), or loaded from cfg.ppo.init when set; the KL
  // anchor network from anchor_file(cfg.ppo) when set (frozen, eval mode). Throws hydra::Error
  // naming the file when a checkpoint does not load.
  Learner(const LearnerConfig& cfg, torch::Device device, game::MasterSeed master);
  ~Learner();
  Learner(const Learner&) = delete;
  Learner& operator=(const Learner&) = delete;

  // One PPO update on whole episodes (reward normalisation, GAE, epochs of shuffled minibatches
  // from the data_order stream (update index, epoch), AdamW steps with gradient clipping).
  UpdateStats update(const selfplay::Rollout& rollout);

  // Data-parallel training (docs/DISTRIBUTED.md): from now on this learner is one replica of
  // `group`'s ranks. Rank 0's weights are broadcast to all at once; each update() takes this
  // rank's rollout, and the ranks together compute the update one learner would on their
  // rollouts concatenated in rank order: reward moments observed over all of them, one shuffle
  // of the union, minibatches split by where their samples live, batch statistics and gradients
  // summed over the ranks. The replicas stay equal. Not with the privileged critic, paired
  // branches or the noise-scale pass (a hydra::Error). Null: one process again.
  void set_group(model::ProcessGroup* group);

  // log pi_T(action) of every decision under the current network at T = cfg.temperature (the
  // policy the actors sample), evaluated as the learner sees
  // the rollout (half observations as float, autocast as in training), in batches of
  // ppo.minibatch. For checks that actors and learner agree (first-epoch ratio 1).
  torch::Tensor log_probs(const selfplay::Rollout& rollout);

  // The objective update() minimises, at the current weights and without stepping: the mean over
  // consecutive minibatches of ppo.minibatch of the PPO loss total (rewards normalised by the
  // running std without observing them, GAE, the entropy and KL-anchor coefficients of update
  // index `coef_update`, autocast as in training). `hydra check` compares it before and after
  // one update of the same rollout.
  double loss(const selfplay::Rollout& rollout, std::int64_t coef_update);

  model::HydraNetImpl& net() { return *net_; }
  model::HydraNet net_holder() const { return net_; }
  torch::optim::Optimizer& optimizer() { return *optimizer_; }
  const torch::Device& device() const { return device_; }
  std::int64_t updates() const { return updates_; }
  bool has_anchor() const { return !anchor_.is_empty(); }
  bool has_critic() const { return !critic_.is_empty(); }
  // ppo.policy_gradient = expected: the policy learns from the critic's action values.
  bool expected_gradient() const { return cfg_.ppo.policy_gradient == "expected"; }
  // The critic's outputs for every decision (no autograd), in normalised reward units: [N,1] V,
  // or [N,47] [V | D(46 actions)] with action values; a privileged critic's rollout must carry
  // privileged planes. For tests and diagnostics.
  torch::Tensor critic_values(const selfplay::Rollout& rollout);
  const RewardNormalizer& reward_normalizer() const { return reward_norm_; }
  const model::WarmupCosine& schedule() const { return schedule_; }

  // Coefficients for update index u (linear from *_start at u = 0 to *_end at train.max_updates).
  double entropy_coef(std::int64_t u) const;
  double kl_anchor_coef(std::int64_t u) const;
  // Updates 0..n-1 train only the value head: ppo.value_warmup with ppo.init, 0 without.
  std::int64_t value_warmup_updates() const;

  // Checkpoint state beyond model and optimizer: step = updates(), scheduler = the schedule,
  // extra["ppo"] = {"updates", "reward_norm"}. restore_state throws hydra::Error when a field is
  // missing.
  void save_state(model::CheckpointData& out) const;
  void restore_state(const model::CheckpointData& in);

 private:
  // The rollout as tensors on the device with advantages and returns: rewards normalised by the
  // running return std (observed first when `observe`), then GAE. Fills the reward and
  // advantage monitoring fields of `stats` when given.
  RolloutTensors prepare(const selfplay::Rollout& rollout, bool observe, UpdateStats& stats);
  // ppo.critic_epochs passes of the critic over `data` toward its returns; the mean MSE.
  double train_critic(const RolloutTensors& data, bool autocast);
  // The critic's [V] or [V | D] on the device rows of `data` in batches of ppo.minibatch (no
  // autograd), [N,1] or [N,47].
  torch::Tensor critic_forward(const RolloutTensors& data, bool autocast);
  // pi_T over all 46 actions [N,46] (0 where illegal) of the network as it stands, for host rows
  // `data` in batches of ppo.minibatch (no autograd), on the host.
  torch::Tensor policy_probs(const RolloutTensors& data);
  // Fills grad_signal and grad_noise of `stats`: the policy-gradient term of the loss at the
  // current weights (ratio 1, advantages normalised over the whole rollout), its gradient on
  // chunks of whole games (`games`: the rollout's game index per decision; consecutive chunks of
  // ppo.noise_batch when empty) of at least ppo.noise_batch decisions, and on two halves of
  // alternate chunks, without touching .grad or stepping.
  void measure_gradient_noise(const RolloutTensors& data, const std::vector<std::int64_t>& games, bool autocast,
                              UpdateStats& stats);
  // The loss settings of the config with the entropy and KL-anchor coefficients of update `u`.
  LossSettings settings_for(std::int64_t u) const;

  LearnerConfig cfg_;
  torch::Device device_;
  game::MasterSeed master_;
  model::ProcessGroup* group_ = nullptr;  // data-parallel replicas (set_group); null: one process
  std::unique_ptr<model::GradientBuckets> buckets_;  // the replicas' gradient sums, during backward
  bool sharded() const { return group_ != nullptr; }  // a group of one rank takes the same path
  model::HydraNet net_{nullptr};
  model::HydraNet anchor_{nullptr};
  std::unique_ptr<torch::optim::AdamW> optimizer_;
  // The separate critic (ppo.critic = privileged or observed) and its optimizer; null otherwise.
  model::CriticNet critic_{nullptr};
  std::unique_ptr<torch::optim::AdamW> critic_optimizer_;
  model::WarmupCosine schedule_;
  RewardNormalizer reward_norm_;
  std::int64_t updates_ = 0;
};

}  // namespace hydra::ppo
