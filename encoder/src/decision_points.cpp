#include "hydra/encoder/decision_points.hpp"

#include <array>

#include "hydra/game/agent.hpp"
#include "hydra/game/runner.hpp"
#include "hydra/common/index.hpp"

namespace hydra::encoder {

std::vector<DecisionPoint> decision_points(const game::TableRules& rules, DecisionKind kind, int games,
                                         std::size_t max, std::uint64_t seed) {
  std::vector<DecisionPoint> out;
  std::array<game::RandomAgent, game::kNumSeats> agents;
  game::Legal legal;
  for (int g = 0; g < games && out.size() < max; ++g) {
    const auto events = game::play_game(rules, game::game_key(game::MasterSeed{seed}, static_cast<std::uint64_t>(g)),
                                        {&agents[0], &agents[1], &agents[2], &agents[3]})
                            .events;
    std::vector<Observer> seats;
    for (int s = 0; s < game::kNumSeats; ++s) seats.emplace_back(game::Seat(s), rules);
    for (const game::Event& e : events) {
      for (int s = 0; s < game::kNumSeats; ++s) {
        Observer& o = seats[ix(s)];
        o.encode();  // clean planes, so dirty() below is exactly what this event touched
        o.apply(e);
        const GroupMask touched = o.encoder().dirty();
        o.view().legal(legal);
        if (legal.phase == game::Phase::idle) continue;
        const bool own = e.actor == game::Seat(s);
        const bool keep = kind == DecisionKind::any_decision ||
                          (kind == DecisionKind::after_other_discard && e.type == game::EventType::dahai && !own) ||
                          (kind == DecisionKind::after_own_draw && e.type == game::EventType::tsumo && own);
        if (keep && out.size() < max) {
          out.push_back({o, touched});
          out.back().obs.encode();
        }
      }
    }
  }
  return out;
}

}  // namespace hydra::encoder
