#pragma once

// Playing many games of four agents (docs/SELFPLAY.md "Playing games"): what an agent is beyond
// game::Agent (one that reads every event, one whose decisions a driver batches across games, one
// that can fail), and play_games, the one way `hydra selfplay` and `hydra eval` play them: always
// on the lock-step play engine (engine.hpp), which batches checkpoint agents' decisions across
// games and answers every other agent inline. game::play_game (game/runner.hpp) stays the plain
// one-game loop for tests and benchmarks.

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hydra/data/game_log.hpp"
#include "hydra/game/agent.hpp"
#include "hydra/game/runner.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/selfplay/policy.hpp"

namespace hydra::selfplay {

// What went wrong with an agent that can fail (an external process, external_agent.hpp): the
// game it happened in is void, and reported, never scored.
struct AgentFault {
  std::string agent;   // the agent's name as given
  int seat = 0;
  std::string event;   // the line the agent was answering (empty: none)
  std::string reply;   // what it answered (empty: nothing)
  std::string reason;
};

// "AGENT at seat S: REASON; event: ...; reply: ..." (one line, for logs).
std::string describe(const AgentFault& f);

// An agent that also reads the game's events as its seat receives them (a model agent keeps its
// own encoder, whose bookkeeping needs every event, not only the view at a decision). Whoever
// drives the game (play_games, the mjai bot command) passes each event to observe() before the
// next act(), and start_game() before the game's first event or, when a host joins mid-game,
// before the first act().
class ObservingAgent : public game::Agent {
 public:
  virtual void observe(const game::Event& e) = 0;
  // The first fault of the current game, or null.
  virtual const AgentFault* fault() const { return nullptr; }
};

// The faults of a game's agents, in seat order.
std::vector<AgentFault> faults_of(const std::array<game::Agent*, game::kNumSeats>& agents);

// An observing agent whose decisions a driver may evaluate in batches across games: prepare()
// writes the decision's inputs into batch slots, the driver evaluates policy() on many rows at
// once, finish() turns the row's masked probabilities into the action. act() does the three for
// one decision.
class BatchedAgent : public ObservingAgent {
 public:
  virtual BatchPolicy* policy() const = 0;
  // obs: encoder::kObsSize floats, context: 16 floats, legal: the decision's mask.
  virtual void prepare(const game::PlayerView& view, const game::Decision& d, float* obs, float* context,
                       game::ActionMask* legal) = 0;
  virtual game::Action finish(const game::Decision& d, const float* probs) = 0;
};

// Makes the agent for a name; several agents of one name may share state (a loaded checkpoint),
// and agents are created and used from several threads at once.
using AgentFactory = std::function<std::unique_ptr<game::Agent>(const std::string& name)>;

// The agents and key of one game.
struct GameStart {
  std::array<std::unique_ptr<game::Agent>, game::kNumSeats> agents;
  game::GameKey key;
};

// A finished game: its result (events recorded) and its agents' faults (non-empty: the game is
// void).
struct PlayedGame {
  std::size_t index = 0;
  game::GameResult result;
  std::vector<AgentFault> faults;
  // The searches of its search: agents, in event order, each on the action it chose (the log's
  // "meta": data::SearchNote).
  std::vector<data::SearchNote> searches;
};

inline constexpr std::size_t kPlaySlots = 256;  // games in flight at most

// Games in flight for these agent names: kPlaySlots, or, when one is an external process
// (mjai:..., mjai.app:...: three processes per game), one game per thread of the cap in force
// (hydra::ThreadLimit::active()), which is what the cores can drive at once.
std::size_t play_slots(const std::vector<std::string>& agent_names);

// Plays `games` games on the engine in min(slots, games) slots (0: kPlaySlots); games take the
// slots in index order as others end. start(i) makes game i's agents and key when the game first
// runs, done(game) gets each finished game as soon as it ends; both are called on worker threads,
// once per game and possibly several at once (starting games and writing their logs run in
// parallel), so both must be safe to call concurrently for different games. Which games are played and what each does depend only on the games, never on the
// thread count.
void play_games(const game::TableRules& rules, std::size_t games, std::size_t slots,
                const std::function<GameStart(std::size_t)>& start, const std::function<void(PlayedGame)>& done);

}  // namespace hydra::selfplay
