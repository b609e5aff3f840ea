#include "hydra/game/runner.hpp"

#include "hydra/common/error.hpp"

namespace hydra::game {

GameResult play_game(const TableRules& rules, const GameKey& key, const std::array<Agent*, kNumSeats>& agents,
                     bool record_events) {
  for (int s = 0; s < kNumSeats; ++s) {
    HYDRA_CHECK(agents[static_cast<std::size_t>(s)] != nullptr, "play_game needs four agents");
    agents[static_cast<std::size_t>(s)]->start_game(Seat(s), key);
  }
  Table table(rules, key, record_events);
  GameResult out;
  while (!table.done()) {
    const auto pending = table.pending();  // a copy: answering the last one replaces the list
    for (const Decision& d : pending)
      table.act(d.seat, agents[static_cast<std::size_t>(d.seat.index())]->act(table.view(d.seat), d));
  }
  out.final_scores = table.final_scores();
  out.ranks = ranks(out.final_scores);
  out.decisions = table.decisions();
  out.kyoku = table.kyoku_played();
  out.events = table.take_events();
  return out;
}

}  // namespace hydra::game
