#pragma once

// What the actors collect at a learner decision for the run's advantage estimator
// (docs/ARCHITECTURE.md "Advantage estimators"). One DecisionCollector per game, made from the
// config's estimator type; the actors call the same four hooks whatever the estimator:
//
//   stored(r, i)   a learner decision became entry i of the seat's trajectory: size its fields
//   encoded(...)   its row was written from the table as it stood (privileged planes)
//   chosen(c)      its action was sampled (play-outs of the actions to compare; a network's are
//                  engine games the game spawns, and the game waits for them: waiting())
//   settle(...)    the game ended: turn what was collected into the trajectory's advantages
//
// GAE on the value head collects nothing; GAE on the privileged critic stores the privileged
// planes; the play-outs play the rest of the kyoku out after the actions they compare and leave
// each decision its action advantages. The learner's side of the same estimator is
// ppo/estimator.hpp.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "hydra/common/config.hpp"
#include "hydra/encoder/augment.hpp"
#include "hydra/encoder/encoder.hpp"
#include "hydra/game/kyoku.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/game/table.hpp"
#include "hydra/selfplay/engine.hpp"
#include "hydra/selfplay/rewards.hpp"
#include "hydra/selfplay/rollout.hpp"

namespace hydra::selfplay {

// A learner decision's choice, as chosen() sees it.
struct Choice {
  const game::Table& table;        // before the action is played
  const game::Decision& decision;  // in the table's action space
  const game::GameKey& key;        // the game's
  const encoder::SuitPerm& perm;   // the seat's: stored action = perm(table action)
  const float* probs;              // the policy's 46 masked probabilities (stored action space)
  game::ActionMask legal;          // the legal actions in the stored action space
  double inv_t;                    // 1 / the seat's sampling temperature
  int action;                      // the action sampled (stored action space)
  Rollout& trajectory;             // the seat's
  std::size_t stored;              // the decision's index in it
  // For play-outs by a network: every seat's encoder (when observes_every_seat()), every seat's
  // suit permutation, and the engine's way in for games of their own (EngineGame::spawn).
  const game::SeatArray<encoder::Encoder>* encoders;
  const game::SeatArray<encoder::SuitPerm>& perm_of_seat;
  const std::function<void(std::unique_ptr<EngineGame>)>& spawn;
};

// A learner seat's trajectory of one game when the game has ended.
struct SeatTrajectory {
  std::size_t seat;
  Rollout& trajectory;                          // rewards assigned
  const std::vector<int>& kyoku_of;             // per stored decision: its index in `kyoku`
  const std::vector<game::KyokuStart>& kyoku;   // the game's kyoku starts
};

class DecisionCollector {
 public:
  virtual ~DecisionCollector() = default;
  virtual void stored(Rollout& /*trajectory*/, std::size_t /*n*/) {}
  virtual void encoded(const game::Table& /*table*/, game::Seat /*seat*/, const encoder::SuitPerm& /*perm*/,
                       Rollout& /*trajectory*/, std::size_t /*stored*/) {}
  virtual void chosen(const Choice& /*choice*/) {}
  virtual void settle(const SeatTrajectory& /*seat*/, KyokuRewardModel& /*rewards*/) {}
  // Whether the game must keep every seat's encoder up to date (a network plays its play-outs).
  virtual bool observes_every_seat() const { return false; }
  // Whether games this one spawned (play-outs by a network) are still running: the game settles
  // once they have all ended.
  virtual bool waiting() const { return false; }
  // Work done beyond the game itself (ActorStats::branches and branch_decisions): the decisions
  // played out and the decisions their play-outs took.
  std::int64_t extra_pairs = 0;
  std::int64_t extra_decisions = 0;
};

// The collector of one game (its key seeds the play-outs' streams). `play_out_agent`: the policy
// that plays the play-outs (selfplay.play_out_agent), null for bot:greedy; `snapshot`: whether it
// is the policy the learner's seats sample from; `play_out_others`: the network of
// selfplay.play_out_others = start or a checkpoint (the other seats of a play-out), else null.
std::unique_ptr<DecisionCollector> make_collector(config::Estimator estimator, const config::SelfplayConfig& sp,
                                                  const game::GameKey& key, BatchPolicy* play_out_agent = nullptr,
                                                  bool snapshot = false, BatchPolicy* play_out_others = nullptr);

}  // namespace hydra::selfplay
