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
#include "hydra/model/distributed.hpp"
#include "hydra/model/grad_buckets.hpp"
#include "hydra/model/network.hpp"
#include "hydra/model/optim.hpp"
#include "hydra/ppo/batch.hpp"
#include "hydra/ppo/estimator.hpp"
#include "hydra/ppo/loss.hpp"
#include "hydra/ppo/reward_norm.hpp"
#include "hydra/ppo/update_stats.hpp"
#include "hydra/selfplay/rollout.hpp"

namespace hydra::ppo {

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
  // summed over the ranks. The replicas stay equal. Only with the gae estimator and without the
  // noise-scale pass (a hydra::Error otherwise). Null: one process again.
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
  bool has_critic() const { return estimator_->has_critic(); }
  const AdvantageEstimator& estimator() const { return *estimator_; }
  // The critic's [N,1] V for every decision (no autograd), in normalised reward units; the
  // rollout must carry privileged planes. For tests and diagnostics.
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
  // running return std (observed first when `observe`), the estimator's baseline, GAE, the
  // estimator's policy targets. Fills the reward and advantage monitoring fields of `stats`.
  RolloutTensors prepare(const selfplay::Rollout& rollout, bool observe, UpdateStats& stats);
  // ppo.unplayed_share < 1: every row of `data` with an action advantage, and of the others a
  // share drawn from the master seed and the update (a function of the row), weighing 1 / share;
  // `data` becomes the kept rows, and the kept rows' games are returned (`games`, the rollout's
  // game of each row, may be empty: then so is the result). Fills stats.learned_rows.
  std::vector<std::int64_t> thin_unplayed(RolloutTensors& data, const std::vector<std::int64_t>& games,
                                          UpdateStats& stats) const;
  // pi_T over all 46 actions [N,46] (0 where illegal) of the network as it stands, for host rows
  // `data` in batches of ppo.minibatch (no autograd), on the host.
  torch::Tensor policy_probs(const RolloutTensors& data);
  // The loss settings of the config with the entropy and KL-anchor coefficients of update `u`.
  LossSettings settings_for(std::int64_t u) const;
  // This rank's n rows among the update's total (data-parallel: the union's [offset, offset + n)).
  struct Shard {
    std::int64_t n = 0, total = 0, offset = 0;
  };
  Shard shard_of(std::int64_t n) const;
  // The epochs over `data` (this rank's rows), in minibatches of ppo.minibatch of the `decisions`
  // the rows stand for (the update's total; the rollout's when its rows were thinned).
  void run_epochs(const RolloutTensors& data, const Shard& shard, std::int64_t decisions, const LossSettings& settings,
                  bool autocast, UpdateStats& stats);
  LossTerms minibatch_terms(const RolloutTensors& b, const LossSettings& settings, bool autocast,
                            std::int64_t global_count);

  LearnerConfig cfg_;
  torch::Device device_;
  game::MasterSeed master_;
  model::ProcessGroup* group_ = nullptr;  // data-parallel replicas (set_group); null: one process
  std::unique_ptr<model::GradientBuckets> buckets_;  // the replicas' gradient sums, during backward
  bool sharded() const { return group_ != nullptr; }  // a group of one rank takes the same path
  model::HydraNet net_{nullptr};
  model::HydraNet anchor_{nullptr};
  std::unique_ptr<torch::optim::AdamW> optimizer_;
  std::unique_ptr<AdvantageEstimator> estimator_;  // the config's (estimator.hpp)
  model::WarmupCosine schedule_;
  RewardNormalizer reward_norm_;
  std::int64_t updates_ = 0;
};

}  // namespace hydra::ppo
