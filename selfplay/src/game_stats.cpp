#include "hydra/selfplay/game_stats.hpp"

#include "hydra/game/kyoku.hpp"
#include "hydra/common/index.hpp"

namespace hydra::selfplay {

void GameTally::add(const game::Event& e) {
  using game::EventType;
  switch (e.type) {
    case EventType::start_kyoku:
      called_ = {};
      for (SeatGame& g : counts_) ++g.kyoku;
      break;
    case EventType::chi:
    case EventType::pon:
    case EventType::daiminkan: {
      const auto a = ix(e.actor.index());
      if (!called_[a]) ++counts_[a].call_kyoku;
      called_[a] = true;
      break;
    }
    case EventType::reach: ++counts_[ix(e.actor.index())].riichi; break;
    case EventType::hora: {
      SeatGame& w = counts_[ix(e.actor.index())];
      ++w.wins;
      w.win_points += e.deltas[ix(e.actor.index())];
      if (e.target == e.actor) {
        ++w.tsumo_wins;
      } else {
        SeatGame& d = counts_[ix(e.target.index())];
        ++d.deal_ins;
        d.deal_in_points -= e.deltas[ix(e.target.index())];
      }
      break;
    }
    case EventType::ryukyoku:
      for (SeatGame& g : counts_) ++g.ryuukyoku;
      break;
    default: break;
  }
}

GameStats GameTally::finish(const game::Scores& final_scores, const std::array<int, 4>& uma) const {
  GameStats out = counts_;
  const auto rank = game::ranks(final_scores);
  for (std::size_t s = 0; s < out.size(); ++s) {
    out[s].rank = rank[s] + 1;
    out[s].pt = uma[static_cast<std::size_t>(rank[s])];
    out[s].score = final_scores[s];
  }
  return out;
}

GameStats game_stats(const std::vector<game::Event>& events, const game::Scores& final_scores,
                     const std::array<int, 4>& uma) {
  GameTally tally;
  for (const game::Event& e : events) tally.add(e);
  return tally.finish(final_scores, uma);
}

}  // namespace hydra::selfplay
