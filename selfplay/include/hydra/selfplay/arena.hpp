#pragma once

// 1v3 duplicate evaluation (docs/EVAL.md): every wall seed is played four times, the
// challenger at seat 0, 1, 2 and 3 in turn and the champion in the other three seats. Seed i
// uses the game key game_key(master, i) in all four games, so the four games share their walls
// (wall keys depend on the game key, kyoku and honba only) and luck of the deal cancels out.
// Games run in parallel (hydra::parallel_for); each game depends only on its seed and seat
// assignment, so the results do not depend on the thread count. When an agent is a BatchedAgent
// (a checkpoint), up to kLockstepGames games run in lock step instead: each pass steps every game
// to its next model decisions, evaluates them as one batch per policy, and answers them; games
// start in seed order as others finish, so every batch's rows are fixed by the seed too.
//
// Sequential test (optional): seeds are played in batches of `batch`; after each batch the
// paired challenger-minus-champion difference of average rank is tested with a Bonferroni
// correction over the K = ceil(seeds / batch) planned looks: its interval uses
// z = Phi^-1(1 - 0.05 / (2K)) instead of 1.96, which keeps the chance of a false "settled" at
// every look together at or below 5%. The run stops at the first look where that interval
// excludes 0 (a significant difference), or, with margin > 0, where it lies inside
// (-margin, +margin) (equivalent within the margin). Looks fall on fixed seed counts, so an
// early stop is as reproducible as a full run.

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hydra/game/agent.hpp"
#include "hydra/game/runner.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/selfplay/eval_stats.hpp"
#include "hydra/selfplay/policy.hpp"

namespace hydra::selfplay {

// An agent that also reads the game's events as its seat receives them (a model agent keeps its
// own encoder, whose bookkeeping needs every event, not only the view at a decision). Whoever
// drives the game (play_observed below, the mjai bot command) passes each event to observe()
// before the next act(), and start_game() before the game's first event or, when a host joins
// mid-game, before the first act().
// What went wrong with an agent that can fail (an external process, external_agent.hpp): the
// game it happened in is void, and reported, never scored.
struct AgentFault {
  std::string agent;   // the agent's name as given
  int seat = 0;
  std::string event;   // the line the agent was answering (empty: none)
  std::string reply;   // what it answered (empty: nothing)
  std::string reason;
};

class ObservingAgent : public game::Agent {
 public:
  virtual void observe(const game::Event& e) = 0;
  // The first fault of the current game, or null.
  virtual const AgentFault* fault() const { return nullptr; }
};

// "AGENT at seat S: REASON; event: ...; reply: ..." (one line, for logs).
std::string describe(const AgentFault& f);

// The faults of a game's agents, in seat order.
std::vector<AgentFault> faults_of(const std::array<game::Agent*, game::kNumSeats>& agents);

// An observing agent whose decisions a driver may evaluate in batches across games: prepare()
// writes the decision's inputs into batch slots, the driver evaluates policy() on many rows at
// once, finish() turns the row's masked probabilities into the action. act() does the three for
// one decision.
class BatchedAgent : public ObservingAgent {
 public:
  virtual BatchPolicy* policy() const = 0;
  // obs: encoder::kObsSize floats, context: 16 floats, legal: the decision's mask bits.
  virtual void prepare(const game::PlayerView& view, const game::Decision& d, float* obs, float* context,
                       std::uint64_t* legal) = 0;
  virtual game::Action finish(const game::Decision& d, const float* probs) = 0;
};

// Makes the agent for a name; several agents of one name may share state (a loaded checkpoint),
// and agents are created and used from several threads at once.
using AgentFactory = std::function<std::unique_ptr<game::Agent>(const std::string& name)>;

// play_game (game/runner.hpp) that also feeds every event, in order, to the seats whose agent is
// an ObservingAgent, each time before that agent acts again.
game::GameResult play_observed(const game::TableRules& rules, const game::GameKey& key,
                               const std::array<game::Agent*, game::kNumSeats>& agents);

inline constexpr std::size_t kLockstepGames = 256;

// Plays `games` games of four agents on the lock-step play engine (engine.hpp) in
// min(kLockstepGames, games) slots: batched agents (checkpoints) are evaluated in batches across
// games, one evaluate() per policy and step; other agents answer inline. start(i) makes game i's
// agents and key (serially, games started in index order as slots free up); done(i, result,
// faults) gets each finished game with its events and its agents' faults (non-empty: the game is
// void), serially and in an order fixed by the games alone.
struct AgentGameStart {
  std::array<std::unique_ptr<game::Agent>, game::kNumSeats> agents;
  game::GameKey key;
};
void play_agents_lockstep(const game::TableRules& rules, std::size_t games,
                          const std::function<AgentGameStart(std::size_t)>& start,
                          const std::function<void(std::size_t, game::GameResult, std::vector<AgentFault>)>& done);

struct SequentialOptions {
  bool enabled = false;
  int batch = 50;       // seeds per look
  double margin = 0;    // average-rank equivalence margin; 0: stop only on a significant difference
};

struct EvalOptions {
  std::string challenger = "bot:greedy";
  std::string champion = "bot:random";
  std::uint64_t seeds = 100;
  game::MasterSeed master;
  std::string rules = "tenhou";
  // Makes the agents; empty: make_bot (built-in agents only). Checkpoint agents come from the
  // torch library (model_agent.hpp).
  AgentFactory make_agent;
  std::optional<std::filesystem::path> logs;  // one gzipped mjai file per game when set
  SequentialOptions sequential;
  // Called with (games finished, games planned) from worker threads, one call at a time.
  std::function<void(std::uint64_t, std::uint64_t)> progress;
};

struct SequentialResult {
  int looks = 0, max_looks = 0;
  double z = 0;
  bool stopped_early = false;
  std::string reason;  // "difference", "equivalent" or "" (ran to the end)
  Estimate last;       // the adjusted interval at the last look
};

// A game voided by an agent's fault (external_agent.hpp).
struct VoidedGame {
  std::uint64_t seed = 0;
  int challenger_seat = 0;
  AgentFault fault;
};

struct EvalResult {
  // In seed order; fewer than asked when stopped early or when a seed had a void game (then none
  // of its four games counts, and `voided` says why).
  std::vector<SeedGames> seeds;
  std::vector<VoidedGame> voided;  // in seed and seat order
  std::uint64_t seeds_voided = 0;
  SequentialResult sequential;
  std::uint64_t games = 0;
  long kyoku = 0, decisions = 0;
};

// Plays the evaluation. Agents are named as options.make_agent (default make_bot()) takes them.
EvalResult run_eval(const EvalOptions& options);

// The four games of one seed (exposed for tests): games[c] with the challenger at seat c. A void
// game throws hydra::Error.
SeedGames play_seed(const EvalOptions& options, std::uint64_t seed_index);

}  // namespace hydra::selfplay
