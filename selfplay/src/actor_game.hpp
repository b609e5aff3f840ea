#pragma once

// One game of the self-play actors (actors.cpp) on the lock-step engine: its seats' agents,
// encoders, suit permutations and sampling streams, the learner seats' trajectories, and the
// run's DecisionCollector (collector.hpp), which it calls at the same points whatever the
// advantage estimator.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hydra/encoder/augment.hpp"
#include "hydra/encoder/encoder.hpp"
#include "hydra/game/agent.hpp"
#include "hydra/game/kyoku.hpp"
#include "hydra/game/rng.hpp"
#include "hydra/game/table.hpp"
#include "hydra/selfplay/actor_stats.hpp"
#include "hydra/selfplay/collector.hpp"
#include "hydra/selfplay/engine.hpp"
#include "hydra/selfplay/external_agent.hpp"
#include "hydra/selfplay/game_stats.hpp"
#include "hydra/selfplay/rollout.hpp"

namespace hydra::selfplay {

// The agent of one seat of one game.
struct SeatAgent {
  BatchPolicy* policy = nullptr;     // null: a bot
  std::unique_ptr<game::Agent> bot;  // when policy is null
  ObservingAgent* observer = nullptr;  // the bot, when it reads every event (an external process)
  bool learner = false;              // the current snapshot: its decisions are stored
  std::string name;                  // in the game log
};

class ActorGame final : public EngineGame {
 public:
  // `recorded` counts the learner decisions stored by every game of a collect.
  ActorGame(double temperature, std::atomic<std::int64_t>& recorded) : temperature_(temperature), recorded_(recorded) {}
  // Before the table is made: the collector says which seats' encoders the game keeps.
  void set_collector(std::unique_ptr<DecisionCollector> c);

  game::Table& table() override { return *table_; }
  BatchPolicy* policy(const game::Decision& d) override;
  game::Action act(const game::Decision& d) override;
  // The seat's observation into the row and, for a learner seat, a new entry of its trajectory.
  void encode(const game::Decision& d, const Row& row) override;
  // The action sampled from the seat's stream; a learner seat's entry gets it, its log-probability
  // and the snapshot's value.
  game::Action choose(const game::Decision& d, const RowResult& res) override;
  void on_event(const game::Table& t, const game::Event& e);

  std::int64_t index = 0;
  game::GameKey key;
  OpponentKind kind = OpponentKind::self;
  std::unique_ptr<game::Table> table_;
  game::SeatArray<encoder::Encoder> enc{encoder::Encoder(game::Seat(0)), encoder::Encoder(game::Seat(1)),
                                        encoder::Encoder(game::Seat(2)), encoder::Encoder(game::Seat(3))};
  game::SeatArray<encoder::SuitPerm> perm{};
  game::SeatArray<game::Xoshiro256ss> rng{game::Xoshiro256ss(game::Digest{}), game::Xoshiro256ss(game::Digest{}),
                                             game::Xoshiro256ss(game::Digest{}), game::Xoshiro256ss(game::Digest{})};
  game::SeatArray<SeatAgent> seats;
  std::unique_ptr<DecisionCollector> collector;  // what the estimator collects beyond the trajectories (set_collector)

  // Trajectories of the learner seats, and the kyoku index of each stored decision.
  game::SeatArray<Rollout> traj;
  game::SeatArray<std::vector<int>> traj_kyoku;
  std::vector<game::KyokuStart> kyoku;  // from the start_kyoku events
  GameTally tally;                      // what each seat did, for the rates

  std::int64_t decisions = 0, network = 0, forced = 0;

 private:
  std::int64_t store(game::Seat seat);  // a new trajectory entry for the decision being encoded

  double temperature_;
  std::atomic<std::int64_t>& recorded_;
  std::vector<std::int64_t> stored_;  // per encoded decision of the step: its trajectory index or -1
  std::size_t chosen_ = 0;
  bool every_seat_observed_ = false;  // the collector's play-outs are played by a network
  std::function<void(std::unique_ptr<EngineGame>)> spawn_{[this](std::unique_ptr<EngineGame> g) { spawn(std::move(g)); }};
};

}  // namespace hydra::selfplay
