#pragma once

// The reference the engine tests compare against: one game at a time, one decision at a time,
// each observing agent fed the recorded events it has not seen before it acts (what
// selfplay::play_games does with the engine, written here the plain way), and a duplicate seed's
// four games played so.

#include <array>
#include <cstdint>

#include "hydra/game/runner.hpp"
#include "hydra/game/table.hpp"
#include "hydra/selfplay/duplicate.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/game_stats.hpp"
#include "hydra/selfplay/play.hpp"
#include "hydra/common/index.hpp"

namespace hydra::testing {

inline game::GameResult play_one_observed(const game::TableRules& rules, const game::GameKey& key,
                                          const std::array<game::Agent*, game::kNumSeats>& agents) {
  std::array<selfplay::ObservingAgent*, game::kNumSeats> observers{};
  for (std::size_t s = 0; s < game::kNumSeats; ++s) {
    observers[s] = dynamic_cast<selfplay::ObservingAgent*>(agents[s]);
    agents[s]->start_game(game::Seat(static_cast<int>(s)), key);
  }
  game::Table table(rules, key, true);
  std::array<std::size_t, game::kNumSeats> seen{};
  const auto catch_up = [&](std::size_t s) {
    for (; seen[s] < table.events().size(); ++seen[s]) observers[s]->observe(table.events()[seen[s]]);
  };
  while (!table.done()) {
    const auto pending = table.pending();
    for (const game::Decision& d : pending) {
      const auto s = ix(d.seat.index());
      if (observers[s]) catch_up(s);
      table.act(d.seat, agents[s]->act(table.view(d.seat), d));
    }
  }
  return game::result_of(table);
}

// The four games of duplicate seed `seed` (games[c]: the challenger at seat c), one at a time.
inline selfplay::SeedGames play_seed_one_by_one(const selfplay::EvalOptions& o, std::uint64_t seed) {
  const game::TableRules& rules = game::table_rules(o.rules);
  const auto make = [&](const std::string& name) { return o.make_agent ? o.make_agent(name) : selfplay::make_bot(name); };
  selfplay::SeedGames out;
  out.seed = seed;
  for (int c = 0; c < game::kNumSeats; ++c) {
    std::array<std::unique_ptr<game::Agent>, game::kNumSeats> agents;
    std::array<game::Agent*, game::kNumSeats> seats{};
    for (int s = 0; s < game::kNumSeats; ++s) {
      agents[ix(s)] = make(s == c ? o.challenger : o.champion);
      seats[ix(s)] = agents[ix(s)].get();
    }
    const game::GameResult r = play_one_observed(rules, game::game_key(o.master, seed), seats);
    out.games[ix(c)] = selfplay::game_stats(r.events, r.final_scores, rules.uma_eval);
  }
  return out;
}

}  // namespace hydra::testing
