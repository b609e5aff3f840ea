// The collectors of the GAE estimators and the factory of every collector (collector.hpp).

#include "hydra/selfplay/collector.hpp"

#include <array>

#include "hydra/encoder/privileged.hpp"
#include "play_out_collector.hpp"

namespace hydra::selfplay {
namespace {

// GAE on the value head: the actors' V_old is the baseline; nothing beyond the trajectory.
class GaeCollector final : public DecisionCollector {};

// GAE on the privileged critic: each learner decision's privileged planes (binary16), for the
// learner's critic only; no policy reads them.
class PrivilegedCollector final : public DecisionCollector {
 public:
  void encoded(const game::Table& table, game::Seat seat, const encoder::SuitPerm& perm, Rollout& r,
               std::size_t i) override {
    r.priv.resize((i + 1) * encoder::kPrivilegedSize);
    encoder::privileged_planes(table, seat, perm, planes_.data());
    round_to_half(planes_.data(), r.priv.data() + i * encoder::kPrivilegedSize, encoder::kPrivilegedSize);
  }

 private:
  std::array<float, encoder::kPrivilegedSize> planes_{};
};

}  // namespace

std::unique_ptr<DecisionCollector> make_collector(config::Estimator estimator, const config::SelfplayConfig& sp,
                                                  const game::GameKey& key, BatchPolicy* play_out_agent,
                                                  bool snapshot, BatchPolicy* play_out_others) {
  const PlayOutAgentSpec agent{play_out_agent, sp.play_out_temperature, sp.play_out_depth,
                               config::greedy_tail(sp),
                               config::play_out_player(sp.play_out_others) == config::PlayOutPlayer::greedy,
                               play_out_others};
  switch (estimator) {
    case config::Estimator::gae: return std::make_unique<GaeCollector>();
    case config::Estimator::privileged_gae: return std::make_unique<PrivilegedCollector>();
    case config::Estimator::play_outs: return std::make_unique<PlayOutCollector>(sp, key, /*every_likely=*/false, agent, snapshot);
    case config::Estimator::play_outs_expected: return std::make_unique<PlayOutCollector>(sp, key, /*every_likely=*/true, agent, snapshot);
  }
  return std::make_unique<GaeCollector>();
}

}  // namespace hydra::selfplay
