#pragma once

// The learner's side of an advantage estimator (docs/ARCHITECTURE.md "Advantage estimators"): what
// it makes of what the actors collected (selfplay/collector.hpp). The learner prepares every
// update the same way whatever the estimator:
//
//   rewards -> normalised -> baseline() -> GAE (value targets, explained variances)
//           -> policy_targets(): the sampled advantage of each decision (GAE's as it stands, or
//              the play-outs' in its place) or, for the expected form, action advantages over
//              every action with pi_old over all actions; their scale is the loss's to normalise
//   ... PPO epochs ... -> after_update(): the estimator's own learning (the critic's passes)
//
// One unit per estimator (estimator_gae.cpp, estimator_play_outs.cpp), made once from the
// config's type; save()/restore() carry its checkpoint state.

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <torch/torch.h>

#include "hydra/common/config.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/model/checkpoint.hpp"
#include "hydra/ppo/batch.hpp"
#include "hydra/ppo/update_stats.hpp"
#include "hydra/selfplay/rollout.hpp"

namespace hydra::ppo {

// What an estimator may use of the learner.
struct EstimatorContext {
  config::ModelConfig model;
  config::PpoConfig ppo;
  torch::Device device = torch::kCPU;
  game::MasterSeed master;
  // pi_T over all 46 actions [N,46] (0 where illegal) of the policy network as it stands, for the
  // host rows given, on the host.
  std::function<torch::Tensor(const RolloutTensors&)> policy_probs;
};

class AdvantageEstimator {
 public:
  virtual ~AdvantageEstimator() = default;
  config::Estimator kind() const { return kind_; }

  // The baseline of GAE for every decision, in normalised reward units: V_old of the snapshot
  // that acted (the rollout's), or a critic's V of the host rows before it learns from them.
  virtual std::vector<float> baseline(const selfplay::Rollout& rollout, const RolloutTensors& host);
  // The policy's targets. `advantage` holds GAE's per decision (normalised rewards); an estimator
  // may replace it (scaling the rollout's raw values by `reward_scale`, 1 / the running return
  // std) and fill host.action_advantage and host.old_probs for the expected form, and the
  // advantage fields of `stats`.
  virtual void policy_targets(const selfplay::Rollout& rollout, double reward_scale, std::vector<float>& advantage,
                              RolloutTensors& host, UpdateStats& stats);
  // After the policy's epochs on the device rows `data` (update index `update`): the estimator's
  // own training; its mean loss (0: none).
  virtual double after_update(const RolloutTensors& data, std::int64_t update);
  // Checkpoint state beyond the policy's (extra.ppo and tensors of `out`).
  virtual void save(model::CheckpointData& out) const;
  virtual void restore(const model::CheckpointData& in);
  // Whether data-parallel ranks can run it (each rank's rollout prepared alone).
  virtual bool data_parallel() const { return false; }
  // A separate critic's outputs [N,1] V for every decision (no autograd), normalised reward
  // units; hydra::Error when the estimator has none. For tests and diagnostics.
  virtual bool has_critic() const { return false; }
  virtual torch::Tensor critic_values(const RolloutTensors& host);

 protected:
  explicit AdvantageEstimator(config::Estimator kind) : kind_(kind) {}

 private:
  config::Estimator kind_;
};

// The estimator of `ctx.ppo` (config::estimator), initialised from ctx.master.
std::unique_ptr<AdvantageEstimator> make_estimator(const EstimatorContext& ctx);

}  // namespace hydra::ppo
