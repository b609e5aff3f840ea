// What every advantage estimator does unless it says otherwise, and the factory (estimator.hpp).

#include "hydra/ppo/estimator.hpp"

#include "estimators.hpp"
#include "hydra/common/error.hpp"

namespace hydra::ppo {

std::vector<float> AdvantageEstimator::baseline(const selfplay::Rollout& rollout, const RolloutTensors& /*host*/) {
  return rollout.value;
}

void AdvantageEstimator::policy_targets(const selfplay::Rollout& /*rollout*/, double /*reward_scale*/,
                                        std::vector<float>& /*advantage*/, RolloutTensors& /*host*/,
                                        UpdateStats& /*stats*/) {}

double AdvantageEstimator::after_update(const RolloutTensors& /*data*/, std::int64_t /*update*/) { return 0.0; }

void AdvantageEstimator::save(model::CheckpointData& /*out*/) const {}

void AdvantageEstimator::restore(const model::CheckpointData& /*in*/) {}

torch::Tensor AdvantageEstimator::critic_values(const RolloutTensors& /*host*/) {
  throw Error("ppo: no critic network (ppo.critic is value_head)");
}

std::unique_ptr<AdvantageEstimator> make_estimator(const EstimatorContext& ctx) {
  switch (config::estimator(ctx.ppo)) {
    case config::Estimator::gae: return make_gae_estimator();
    case config::Estimator::privileged_gae: return make_privileged_gae_estimator(ctx);
    case config::Estimator::play_outs: return make_play_out_estimator(ctx, /*expected=*/false);
    case config::Estimator::play_outs_expected: return make_play_out_estimator(ctx, /*expected=*/true);
  }
  return make_gae_estimator();
}

}  // namespace hydra::ppo
