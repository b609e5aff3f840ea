#pragma once

// Per-kyoku rewards of a finished self-play game and how they land on a seat's episodes
// (docs/SELFPLAY.md "Rewards"). One interface, two models: the score change (ScoreRewardModel,
// the default) and the GRP's change of expected placement points (GrpRewardModel,
// hydra/selfplay/torch/inference.hpp, config selfplay.grp).

#include <array>
#include <optional>
#include <vector>

#include "hydra/game/kyoku.hpp"
#include "hydra/selfplay/rollout.hpp"

namespace hydra::selfplay {

// rewards(kyoku, final)[t][seat] is the reward of `seat` (absolute) for kyoku t. Called from the
// thread that runs the actors' collect(), never concurrently.
class KyokuRewardModel {
 public:
  virtual ~KyokuRewardModel() = default;
  virtual std::vector<std::array<double, 4>> rewards(const std::vector<game::KyokuStart>& kyoku,
                                                     const std::array<int, 4>& final_scores) = 0;
  // The reward of the last kyoku of `kyoku` for several ways it could have ended (greedy
  // play-outs): ending i is followed by the kyoku start next[i], or ends the game with the final
  // scores scores[i] when next[i] is empty. rewards(kyoku + next[i], scores[i])[last], each; a
  // model with a network reads the shared kyoku once.
  virtual std::vector<std::array<double, 4>> last_kyoku_rewards(const std::vector<game::KyokuStart>& kyoku,
                                                                const std::vector<std::optional<game::KyokuStart>>& next,
                                                                const std::vector<std::array<int, 4>>& scores);
};

// The kyoku's score change / kRewardScale, plus on the game's last kyoku the placement points of
// the final rank (3, 1, -1, -3; ties to the seat nearer the first dealer). A seat's rewards over a
// game telescope to (final score - start score) / 10,000 + placement points.
inline constexpr double kRewardScale = 10000.0;
inline constexpr std::array<double, 4> kPlacementReward{3.0, 1.0, -1.0, -3.0};

class ScoreRewardModel final : public KyokuRewardModel {
 public:
  std::vector<std::array<double, 4>> rewards(const std::vector<game::KyokuStart>& kyoku,
                                             const std::array<int, 4>& final_scores) override;
};

// Fills `traj`'s reward and done for one seat's stored decisions of a game. kyoku_of[i] is the
// kyoku index of decision i (non-decreasing). An episode ends at the seat's last decision of each
// kyoku and carries that kyoku's reward. A kyoku in which the seat never decided (every move it
// had was forced, or the kyoku ended first) earned its reward by no decision: the reward is
// dropped, not carried into a neighbouring episode, and the count of such kyoku is returned.
std::int64_t assign_episode_rewards(Rollout& traj, const std::vector<int>& kyoku_of,
                                    const std::vector<std::array<double, 4>>& rewards, std::size_t seat);

}  // namespace hydra::selfplay
