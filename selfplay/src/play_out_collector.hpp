#pragma once

// Greedy play-outs (docs/PPO.md "Greedy play-outs", "Play-outs of every likely action"): at a
// learner decision that is the table's only pending one, the rest of the kyoku played out by
// bot:greedy in every seat after the actions to compare and after the bot's own choice g, on
// selfplay.play_outs fresh deals of the unseen tiles; each action's advantage is the mean over the
// walls of Q(a) - Q(g). The sampled form plays out the action played; the expected form every
// action the tempered policy gives at least selfplay.play_out_min_prob.

#include <cstdint>
#include <optional>
#include <vector>

#include "hydra/game/rng.hpp"
#include "hydra/selfplay/collector.hpp"

namespace hydra::selfplay {

// Where a play-out ended: the next kyoku's start (absent when the game ended in this one) and
// the scores then (the final scores when it did).
struct PlayOutEnd {
  std::optional<game::KyokuStart> next;
  game::Scores scores{};
  std::int64_t decisions = 0;
};

class PlayOutCollector final : public DecisionCollector {
 public:
  // `every_likely`: the expected form (every likely action), else the sampled form.
  PlayOutCollector(const config::SelfplayConfig& sp, const game::GameKey& key, bool every_likely);

  void stored(Rollout& r, std::size_t n) override;
  void chosen(const Choice& c) override;
  void settle(const SeatTrajectory& seat, KyokuRewardModel& rewards) override;

 private:
  // One decision's play-outs: the actions played out besides g (stored action space) and where
  // each play-out ended (rewarded when the game settles, by the game's reward model).
  struct PlayOuts {
    std::size_t stored = 0;
    std::vector<int> actions;
    std::vector<PlayOutEnd> played;  // per wall k, per action j: played[k * actions.size() + j]
    std::vector<PlayOutEnd> greedy;  // per wall
  };
  // The actions to play out at `c` besides g (stored action space); marks them in played_out.
  std::vector<int> actions_to_play(const Choice& c, int g_stored) const;
  void play(const Choice& c, game::Action g, PlayOuts& p) const;

  double branch_rate_;
  int walls_;
  double min_prob_;  // the expected form's threshold; -1 = the sampled form
  game::SeatArray<game::Xoshiro256ss> rng_;  // per seat: which decisions are played out
  game::SeatArray<std::vector<PlayOuts>> play_outs_;
};

}  // namespace hydra::selfplay
