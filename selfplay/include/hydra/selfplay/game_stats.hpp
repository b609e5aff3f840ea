#pragma once

// What each seat did in one finished game, counted from the game's mjai events: the raw
// numerators and denominators the evaluation report aggregates (eval_stats.hpp).

#include <array>
#include <vector>

#include "hydra/game/event.hpp"

namespace hydra::selfplay {

struct SeatGame {
  int rank = 0;      // 1-4 (ties by seat order, the first dealer first)
  int pt = 0;        // Houou pt of the rank: uma_eval[rank - 1], [90, 45, 0, -135] under tenhou
  int score = 0;     // final score
  int kyoku = 0;     // kyoku played: the denominator of every per-kyoku rate
  int wins = 0;      // hora as the winner (a double ron counts once per winner)
  int tsumo_wins = 0;
  int deal_ins = 0;  // hora with this seat as the discarder (a double ron counts twice)
  int riichi = 0;    // reach declarations
  int call_kyoku = 0;  // kyoku with at least one chi, pon or daiminkan by this seat
  int ryuukyoku = 0;   // kyoku that ended in a draw (exhaustive or abortive), the same for every seat
  long win_points = 0;      // sum of the seat's hora deltas as the winner (honba and sticks included)
  long deal_in_points = 0;  // sum of what the seat paid as the discarder (positive)
  friend bool operator==(const SeatGame&, const SeatGame&) = default;
};

using GameStats = std::array<SeatGame, game::kNumSeats>;

// The one tally of what each seat did: fed a game's events one at a time (the self-play actors
// feed it from the table's event hook, so it needs no recorded log), then finished with the final
// scores (after the last settlement, sticks to the top player included); `uma` gives the pt of
// ranks 1-4.
class GameTally {
 public:
  void add(const game::Event& e);
  GameStats finish(const game::Scores& final_scores, const std::array<int, 4>& uma) const;

 private:
  GameStats counts_{};
  std::array<bool, game::kNumSeats> called_{};  // a call in this kyoku, per seat
};

// Counts one whole recorded game (a GameTally over its events).
GameStats game_stats(const std::vector<game::Event>& events, const game::Scores& final_scores,
                     const std::array<int, 4>& uma);

}  // namespace hydra::selfplay
