#include "hydra/selfplay/game_stats.hpp"

#include "hydra/game/kyoku.hpp"

namespace hydra::selfplay {

GameStats game_stats(const std::vector<game::Event>& events, const game::Scores& final_scores,
                     const std::array<int, 4>& uma) {
  using game::EventType;
  GameStats out{};
  const auto rank = game::ranks(final_scores);
  for (std::size_t s = 0; s < out.size(); ++s) {
    out[s].rank = rank[s] + 1;
    out[s].pt = uma[static_cast<std::size_t>(rank[s])];
    out[s].score = final_scores[s];
  }
  std::array<bool, game::kNumSeats> called{};
  for (const game::Event& e : events) {
    switch (e.type) {
      case EventType::start_kyoku:
        called = {};
        for (SeatGame& g : out) ++g.kyoku;
        break;
      case EventType::chi:
      case EventType::pon:
      case EventType::daiminkan: {
        const auto a = static_cast<std::size_t>(e.actor.index());
        if (!called[a]) ++out[a].call_kyoku;
        called[a] = true;
        break;
      }
      case EventType::reach: ++out[static_cast<std::size_t>(e.actor.index())].riichi; break;
      case EventType::hora: {
        SeatGame& w = out[static_cast<std::size_t>(e.actor.index())];
        ++w.wins;
        w.win_points += e.deltas[static_cast<std::size_t>(e.actor.index())];
        if (e.target == e.actor) {
          ++w.tsumo_wins;
        } else {
          SeatGame& d = out[static_cast<std::size_t>(e.target.index())];
          ++d.deal_ins;
          d.deal_in_points -= e.deltas[static_cast<std::size_t>(e.target.index())];
        }
        break;
      }
      case EventType::ryukyoku:
        for (SeatGame& g : out) ++g.ryuukyoku;
        break;
      default: break;
    }
  }
  return out;
}

}  // namespace hydra::selfplay
