#pragma once

// How a kyoku is paid and what comes after it; shared by the table (which plays) and the replay
// checker (which recomputes a log), so the two can never disagree about money.
//
//   - wins: ron and tsumo payments with honba (300 per honba, from the discarder or 100 from
//     each payer), riichi sticks to the first winner counting from the discarder (double ron),
//     pao (daisangen / daisuushii liability: a tsumo is paid in full by the liable seat, a ron is
//     split half and half between the discarder and the liable seat, honba by the discarder);
//   - exhaustive draws: nagashi mangan (paid like a mangan tsumo, no honba, instead of noten
//     payments), else noten payments from a 3,000 pool;
//   - the next kyoku: renchan when the dealer wins or is tenpai at an exhaustive draw and after
//     abortive draws, honba +1 on renchan and on draws, riichi sticks kept on draws; and the end
//     of the game: tobi, agari-yame, the extension round's sudden death, the final kyoku;
//   - the final ranking (seat order breaks ties) and placement points (uma/oka).

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "hydra/game/event.hpp"
#include "hydra/game/score.hpp"
#include "hydra/game/rules.hpp"

namespace hydra::game {

// The mjai yaku list of a scored win (Tenhou's vocabulary: yakuman entries 100 han, dora kinds
// listed only when non-zero), its fan (100 for yakuman) and fu.
MjaiYakuList mjai_yakus(const WinResult& r);
int mjai_fan(const WinResult& r);

// The payments of one win. `sticks_and_honba` is false for the second winner of a double ron.
Scores win_deltas(const WinResult& r, Seat winner, Seat discarder, Seat oya, int honba, int kyotaku,
                  Seat pao, bool sticks_and_honba);

// Exhaustive draw payments from the tenpai and nagashi flags.
Scores exhaustive_draw_deltas(const std::array<bool, kNumSeats>& tenpai, const std::array<bool, kNumSeats>& nagashi,
                              Seat oya);

// The round index of a kyoku (0 = East 1 ... 15 = North 4) from its round wind and number, as
// start_kyoku and a view name them: the inverse of GameProgress::bakaze() and kyoku().
constexpr int round_index(TileType bakaze, int kyoku) { return (bakaze.index() - 27) * 4 + kyoku - 1; }

// The state at the start of a kyoku as the GRP model and the self-play rewards read it.
struct KyokuStart {
  int round = 0;  // round_index: E1 = 0 ... S4 = 7, West 8-11
  int honba = 0;
  int riichi_sticks = 0;
  std::array<int, kNumSeats> scores{};  // absolute seats, points
};
KyokuStart kyoku_start(const Event& start_kyoku);

// Where a game stands between kyoku.
struct GameProgress {
  int round = 0;  // 0 = East 1 ... 15 = North 4
  int honba = 0;
  int kyotaku = 0;
  Scores scores{};

  TileType bakaze() const { return TileType(27 + round / 4); }
  int kyoku() const { return round % 4 + 1; }
  Seat oya() const { return Seat(round % 4); }
  static GameProgress start(const TableRules& rules);
};

// How a kyoku ended, for the progression rules.
struct KyokuOutcome {
  bool win = false;          // at least one hora
  bool dealer_won = false;   // the dealer among the winners
  bool exhaustive = false;   // exhaustive draw (nagashi mangan included)
  bool dealer_tenpai = false;
  bool abortive = false;     // kyuushu, suufon renda, suucha riichi, suukaikan, sanchahou
};

// Why a game ends after a kyoku (`none`: it goes on).
enum class GameEnd : std::uint8_t {
  none,
  tobi,            // a score below 0
  one_kyoku,       // the rules play a single kyoku
  agari_yame,      // all-last: the dealer won and is top with >= target_score
  tenpai_yame,     // all-last: the dealer tenpai at the exhaustive draw and top with >= target_score
  target_reached,  // all-last or the extension without renchan: someone has >= target_score
  final_round,     // the last kyoku the rules have (South 4 without extension, West 4 with)
};
// "tenpai_yame (all-last: the dealer is tenpai at the exhaustive draw and top with >= target_score)", ...
std::string_view to_string(GameEnd e);

// The rules' decision after a kyoku: why the game ends there, or GameEnd::none.
GameEnd game_end(const GameProgress& before, const KyokuOutcome& outcome, const Scores& scores_after,
                 const TableRules& rules);
// Why the game goes on after a kyoku whose game_end() is none, in words (for the replay checker).
std::string why_game_goes_on(const GameProgress& before, const KyokuOutcome& outcome, const Scores& scores_after,
                             const TableRules& rules);

// The kyoku after this one, or nullopt when the game is over (game_end() names why). `after`
// holds the scores and sticks after the kyoku's payments.
std::optional<GameProgress> next_kyoku(const GameProgress& before, const KyokuOutcome& outcome,
                                       const Scores& scores_after, int kyotaku_after, const TableRules& rules);

// Final ranks (0 = top) with ties broken by seat order (the first dealer first).
std::array<int, kNumSeats> ranks(const Scores& scores);
// The index of a rank tuple (rank of seat 0, ..., rank of seat 3) among the 24 permutations of
// 0..3 in lexicographic order: (0,1,2,3) = 0, (0,1,3,2) = 1, ..., (3,2,1,0) = 23 (the GRP's
// 24-way target). Throws InvariantError unless `r` is a permutation of 0..3.
int rank_permutation_index(const std::array<int, kNumSeats>& r);
// Final scores: leftover riichi sticks to the top player where the rules say so.
Scores final_scores(const Scores& scores, int kyotaku, const TableRules& rules);
// Placement points: (score - target) / 1000 + uma[rank] + oka for the top, with the given uma.
std::array<double, kNumSeats> placement_points(const Scores& final, const std::array<int, 4>& uma, const TableRules& rules);

}  // namespace hydra::game
