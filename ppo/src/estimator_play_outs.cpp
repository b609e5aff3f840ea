// The play-outs' estimators (docs/PPO.md "Greedy play-outs", "Play-outs of every likely
// action"): the actors played the rest of the kyoku out after the actions to compare and after
// the greedy bot's choice g (selfplay/src/play_out_collector.cpp). The sampled form's advantage of
// a decision played out is Q(a) - Q(g) of the action a it played, and 0 for a decision not played
// out; the expected form turns the Q(a) - Q(g) of every action played out into action advantages
// under the policy as it stands.

#include <cmath>

#include "estimators.hpp"
#include "hydra/common/error.hpp"
#include "hydra/model/network.hpp"

namespace hydra::ppo {
namespace {

class PlayOutEstimator final : public AdvantageEstimator {
 public:
  PlayOutEstimator(const EstimatorContext& ctx, bool expected)
      : AdvantageEstimator(expected ? config::Estimator::play_outs_expected : config::Estimator::play_outs),
        adv_clip_(ctx.ppo.adv_clip),
        expected_(expected),
        policy_probs_(ctx.policy_probs) {}

  void policy_targets(const selfplay::Rollout& rollout, double reward_scale, std::vector<float>& advantage,
                      RolloutTensors& host, UpdateStats& stats) override {
    sampled_advantages(rollout, reward_scale, advantage, stats);
    if (expected_) action_advantages(rollout, reward_scale, host, stats);
  }

 private:
  // The play-out's Q(a) - Q(g) (on the scale of the normalised rewards) of a decision played out;
  // a decision without one carries none. The value targets stay GAE's.
  static void sampled_advantages(const selfplay::Rollout& rollout, double scale, std::vector<float>& advantage,
                                 UpdateStats& stats) {
    const std::size_t n = advantage.size();
    if (rollout.paired.size() != n)
      throw Error("ppo.advantage = rollout, but the rollout carries no greedy play-outs (the actors must be "
                  "configured with the same ppo.advantage)");
    std::int64_t pairs = 0;
    for (std::size_t i = 0; i < n; ++i) {
      advantage[i] = rollout.paired[i] ? static_cast<float>(rollout.paired_advantage[i] * scale) : 0.0f;
      pairs += rollout.paired[i];
    }
    stats.paired_share = static_cast<double>(pairs) / static_cast<double>(n);
  }

  // The expected policy gradient: action advantages D(s, a) - sum_b pi(b) D(s, b) under the
  // policy as it stands (on-policy in expectation over the action, so no behaviour probabilities
  // are needed), over the actions played out (pi renormalised over them; the others carry 0, no
  // push either way), scaled so that their pi-weighted second moment over the rollout is 1 (the
  // sampled form's normalised advantages have variance 1) and clipped.
  void action_advantages(const selfplay::Rollout& rollout, double scale, RolloutTensors& host,
                         UpdateStats& stats) const {
    const std::int64_t n = host.size();
    if (rollout.played_out.size() != static_cast<std::size_t>(n))
      throw Error("ppo.policy_gradient = expected with ppo.advantage = rollout, but the rollout carries no play-outs "
                  "of every likely action (the actors must be configured with the same ppo.policy_gradient)");
    const auto d = torch::from_blob(const_cast<float*>(rollout.action_value.data()), {n, model::kActions}, torch::kFloat)
                       .mul(scale);
    const auto over = action_masks(rollout.played_out).logical_and(host.legal);
    // pi_old only where two or more actions were played out: elsewhere every action advantage is
    // 0, and so are the surrogate and its gradient whatever pi_old holds (0 there). Most decisions
    // are not played out, so this pass is a fraction of one over the rollout.
    const auto rows = over.sum(1).ge(2).nonzero().squeeze(1);
    host.old_probs = torch::zeros({n, model::kActions});
    if (rows.numel() > 0) host.old_probs.index_copy_(0, rows, policy_probs_(host.select(rows)));
    const auto pi = torch::where(over, host.old_probs, torch::zeros_like(host.old_probs));
    const auto mass = pi.sum(1, /*keepdim=*/true);
    const auto mean = (pi * d).sum(1, /*keepdim=*/true) / mass.clamp_min(1e-12);
    auto centred = torch::where(over, d - mean, torch::zeros_like(d));
    const double sd = std::sqrt((host.old_probs * centred.pow(2)).sum(1).mean().item<double>());
    stats.action_adv_std = sd;
    host.action_advantage = (centred / (sd + 1e-8)).clamp(-adv_clip_, adv_clip_);
  }

  double adv_clip_;
  bool expected_;
  std::function<torch::Tensor(const RolloutTensors&)> policy_probs_;
};

}  // namespace

std::unique_ptr<AdvantageEstimator> make_play_out_estimator(const EstimatorContext& ctx, bool expected) {
  return std::make_unique<PlayOutEstimator>(ctx, expected);
}

}  // namespace hydra::ppo
