#include "hydra/game/runner.hpp"

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {

GameResult play_game(const TableRules& rules, const GameKey& key, const std::array<Agent*, kNumSeats>& agents,
                     bool record_events) {
  for (int s = 0; s < kNumSeats; ++s) {
    HYDRA_CHECK(agents[ix(s)] != nullptr, "play_game needs four agents");
    agents[ix(s)]->start_game(Seat(s), key);
  }
  Table table(rules, key, record_events);
  while (!table.done()) {
    const auto pending = table.pending();  // a copy: answering the last one replaces the list
    for (const Decision& d : pending)
      table.act(d.seat, agents[ix(d.seat.index())]->act(table.view(d.seat), d));
  }
  return result_of(table);
}

GameResult result_of(Table& table) {
  HYDRA_CHECK(table.done(), "result_of: the game has not ended");
  GameResult out;
  out.final_scores = table.final_scores();
  out.ranks = ranks(out.final_scores);
  out.decisions = table.decisions();
  out.kyoku = table.kyoku_played();
  out.events = table.take_events();
  return out;
}

}  // namespace hydra::game
