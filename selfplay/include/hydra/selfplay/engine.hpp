#pragma once

// The lock-step play engine (docs/SELFPLAY.md "The engine"). Everything that plays many games at
// once against batched policies goes through it: the trainer's actors (actors.hpp), the
// games of `hydra eval` and `hydra selfplay` (play_games, play.hpp).
//
// Games sit in slots, the slots in one or two groups. One step of a group:
//   1. in parallel over its games: each waiting decision gets its row's result (Game::choose,
//      then the action is played), and the game advances to its next network decisions: for every
//      pending decision Game::policy names the batch policy that decides it, or none, and then
//      Game::act answers it at once (a bot, a forced move);
//   2. serially, in slot order: a finished game goes to the driver (Driver::finished) and a free
//      slot takes the driver's next game (Driver::next); the games a game spawned in step 1
//      (EngineGame::spawn: branches of it, played to their own end) take free slots after the
//      driver's, appended to the group when there are none, in slot then spawn order; new games
//      advance until each waits on a policy or has finished (a game can end without a network
//      decision). Spawned games end like any other, through Driver::finished;
//      Then a game that deferred a decision (EngineGame::defer: it waits on games it spawned, a
//      search) is asked resume() for the action, in parallel, once the games of the step have
//      ended (the serial part above, repeated until no game resumes or starts), so a game
//      resumes at the same step whatever the thread count;
//   3. rows: every waiting decision gets a row in its policy's batch, in slot order, then decision
//      order; in parallel each game writes its rows (Game::encode).
// Then each policy with rows is evaluated once (in chunks of `max_batch` rows when set). With one
// group the evaluation runs inline after the step; with two, a group's batch is evaluated on a
// dedicated inference thread while the other group steps, so the CPU and the model overlap.
// A game depends only on its own state and its rows' results, and a policy's rows are laid out
// the same way whatever the thread count or timing, so the results never depend on either.
//
// An agent that answers asynchronously (an external process) fits the same loop as a policy
// whose evaluate() waits for its replies.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "hydra/game/table.hpp"
#include "hydra/selfplay/policy.hpp"

namespace hydra::selfplay {

// One row of a policy's batch, for Game::encode to fill.
struct Row {
  float* obs = nullptr;             // encoder::kObsSize values
  float* context = nullptr;         // encoder::kContextSize values
  game::ActionMask* legal = nullptr;  // the mask the policy normalises over
};

// What the policy answered for a row.
struct RowResult {
  const float* probs = nullptr;  // 46 masked probabilities
  float value = 0;
  std::int64_t version = 0;      // the policy's version(), read just before its evaluate()
};

class EngineGame {
 public:
  virtual ~EngineGame() = default;
  virtual game::Table& table() = 0;
  // Whether the game has ended: by default when its table has; a branch may end earlier (at the
  // end of its kyoku).
  virtual bool over() { return table().done(); }
  // Called once when over() became true, on the worker thread that played the game's last step
  // (so games end in parallel), before the driver's finished() gets it.
  virtual void ended() {}
  // The policy that decides `d`, or null: then act(d) answers it at once. Called once per
  // pending decision, in the table's order, before act() or encode() for that decision.
  virtual BatchPolicy* policy(const game::Decision& d) = 0;
  virtual game::Action act(const game::Decision& d) = 0;
  // Writes the row of a decision policy() sent to a batch; then choose() turns its result into
  // the action (in the table's action space) that the engine plays.
  virtual void encode(const game::Decision& d, const Row& row) = 0;
  virtual game::Action choose(const game::Decision& d, const RowResult& result) = 0;
  // The action of a decision choose() deferred, once the game has it; nullopt: not yet. Called
  // after each step's games have ended (the games it spawned among them), never concurrently
  // with them.
  virtual std::optional<game::Action> resume(const game::Decision& d);

  // Seconds this game spent in steps 1-2 (playing) and in encode(), summed by the engine.
  double play_seconds = 0;
  double encode_seconds = 0;

 protected:
  // From choose(), or from resume() when it answers nullopt (to wait on more games): another game
  // for the engine to play in this run, beside this one (step 2).
  void spawn(std::unique_ptr<EngineGame> game) { spawned_.push_back(std::move(game)); }
  // From choose(): this decision has no action yet (its return value is ignored); the game waits,
  // without rows, until resume() answers it. A deferred game must have spawned the games whose
  // end it waits on: a group whose only games wait is an error.
  void defer() { defer_ = true; }

 private:
  friend class Engine;
  struct Waiting {
    game::Decision decision;
    BatchPolicy* source = nullptr;
    std::size_t policy = 0;  // index in the group's policy list of the step
    std::size_t row = 0;
  };
  std::vector<Waiting> waiting_;
  std::vector<game::Decision> deferred_;
  bool defer_ = false;
  std::vector<std::unique_ptr<EngineGame>> spawned_;
};

// Supplies and receives the games; called serially from the thread that runs the engine.
class EngineDriver {
 public:
  virtual ~EngineDriver() = default;
  // The next game to play, or null when the driver wants no more now.
  virtual std::unique_ptr<EngineGame> next() = 0;
  virtual void finished(std::unique_ptr<EngineGame> game) = 0;
  // After each step of a group (progress reports; nothing may change a game here).
  virtual void stepped() {}
};

struct EngineOptions {
  std::vector<std::size_t> groups{1};  // slots per group (one or two groups)
  int max_batch = 0;                   // rows per evaluate() call; 0 = one call per policy and step
  bool overlap = true;                 // overlapping policies (BatchPolicy::overlaps) run on threads of their own
};

struct EngineStats {
  std::int64_t forward_passes = 0;  // evaluate() calls
  std::int64_t rows = 0;            // rows evaluated
  double inference_seconds = 0;     // inside evaluate()
  double wait_seconds = 0;          // the engine's thread waiting for a group's evaluation
};

class Engine {
 public:
  explicit Engine(EngineOptions options);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Fills every slot from the driver, then plays until every game (spawned ones too) has finished
  // and the driver gives no more. An exception from a game, a policy or the driver ends the run and is rethrown
  // here; the engine is then unusable (games stay half played).
  void run(EngineDriver& driver);

  EngineStats take_stats();  // since the last call

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hydra::selfplay
