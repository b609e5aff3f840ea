#pragma once

// Play-outs (docs/PPO.md "Greedy play-outs", "Play-outs of every likely action", "Play-outs by
// the network"): at a learner decision that is the table's only pending one, the rest of the
// kyoku played out by the play-out agent in every seat after the actions to compare and after a
// reference, on selfplay.play_outs fresh deals of the unseen tiles; each action's advantage is the
// mean over the walls of Q(a) - Q(reference). The sampled form plays out the action played; the
// expected form every action the tempered policy gives at least selfplay.play_out_min_prob.
//
// The reference is the agent's own choice g where it is known without a pass (bot:greedy's; the
// snapshot's argmax, which is the argmax of the probabilities the decision was sampled from):
// g is then marked with advantage 0 and not played out again. Otherwise (another network, or any
// network sampling) the reference is the agent playing the decision itself. bot:greedy plays out
// inside the deciding game's step; a network's play-outs are engine games of their own
// (play_out_game.hpp), and the game settles once they have all ended (waiting()).

#include <atomic>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "hydra/game/rng.hpp"
#include "hydra/selfplay/collector.hpp"
#include "hydra/selfplay/play_out_game.hpp"

namespace hydra::selfplay {

class PlayOutCollector final : public DecisionCollector {
 public:
  // `every_likely`: the expected form (every likely action), else the sampled form.
  // `agent`: a network's (policy null: bot:greedy); `snapshot`: whether it is the policy the
  // learner's seats sample from.
  PlayOutCollector(const config::SelfplayConfig& sp, const game::GameKey& key, bool every_likely,
                   const PlayOutAgentSpec& agent, bool snapshot);

  void stored(Rollout& r, std::size_t n) override;
  void chosen(const Choice& c) override;
  void settle(const SeatTrajectory& seat, KyokuRewardModel& rewards) override;
  bool observes_every_seat() const override { return agent_.policy != nullptr; }
  bool waiting() const override { return outstanding_.load(std::memory_order_acquire) > 0; }

 private:
  // One decision's play-outs: the actions played out besides the reference (stored action space)
  // and where each play-out ended (rewarded when the game settles, by the game's reward model).
  struct PlayOuts {
    std::size_t stored = 0;
    std::vector<int> actions;
    std::vector<PlayOutEnd> played;     // per wall k, per action j: played[k * actions.size() + j]
    std::vector<PlayOutEnd> reference;  // per wall
  };
  bool unsure(const Choice& c) const;
  bool kind_played(const Choice& c) const;
  // The agent's choice at `c` in the table's action space, where it is known without a pass.
  std::optional<game::Action> known_choice(const Choice& c) const;
  // The actions to play out at `c` besides the reference g (stored action space, -1: none known);
  // marks them and g in played_out.
  std::vector<int> actions_to_play(const Choice& c, int g_stored) const;
  // The play-outs of `p` on each wall: bot:greedy's here, in parallel; a network's spawned.
  void play(const Choice& c, std::optional<game::Action> g, PlayOuts& p);
  std::optional<game::Xoshiro256ss> walls_stream(const Choice& c, std::size_t k) const;
  // Action j's mean difference `mean` from its reference over the walls (rewards r, wall-major,
  // m actions a wall; base: the reference's per wall), or 0 where selfplay.play_out_sigmas
  // standard errors of the per-wall differences cover 0.
  double gated(double mean, std::size_t j, std::size_t m, const std::vector<double>& r,
               const std::vector<double>& base) const;

  double branch_rate_;
  int walls_;
  double min_prob_;  // the expected form's threshold; -1 = the sampled form
  double unsure_;    // play out only where the most likely action has less
  double sigmas_;    // selfplay.play_out_sigmas (0: off)
  bool calls_;       // selfplay.play_out_calls
  bool riichi_;      // selfplay.play_out_riichi
  PlayOutAgentSpec agent_;
  bool snapshot_;
  game::SeatArray<game::Xoshiro256ss> rng_;  // per seat: which decisions are played out
  game::SeatArray<std::deque<PlayOuts>> play_outs_;  // a deque: spawned play-outs write into them
  std::atomic<int> outstanding_{0};                   // spawned play-outs not yet ended
};

}  // namespace hydra::selfplay
