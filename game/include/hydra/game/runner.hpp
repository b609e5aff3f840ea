#pragma once

// Plays whole games: one table, four agents, until the game ends.

#include <array>
#include <vector>

#include "hydra/game/agent.hpp"
#include "hydra/game/table.hpp"

namespace hydra::game {

struct GameResult {
  std::vector<Event> events;  // empty unless recorded
  Scores final_scores{};
  std::array<int, kNumSeats> ranks{};
  int kyoku = 0;
  int decisions = 0;  // decisions the agents took (the table takes forced ones itself)
};

// The result of a finished table (done()); takes its recorded events.
GameResult result_of(Table& table);

// Plays the game of `key` with agents[s] at seat s (each start_game()ed first): the one-game loop
// for tests and benchmarks (many games: selfplay::play_games).
GameResult play_game(const TableRules& rules, const GameKey& key, const std::array<Agent*, kNumSeats>& agents,
                     bool record_events = true);

}  // namespace hydra::game
