#pragma once

// Scoring a win: yaku, han, fu, the limit, the points and every seat's payment.
//
// score_win() tries every interpretation of the hand (each normal-form decomposition with each
// place the winning tile can sit, chiitoitsu, kokushi) and keeps the one that scores the most
// points; ties go to more han, then more fu. It allocates nothing and reads the rules struct only.

#include <array>
#include <cstdint>

#include "hydra/game/hand.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/yaku.hpp"

namespace hydra::game {

inline constexpr int kMaxDoraIndicators = 5;

// The situation of a win. Flags are trusted here (validate_win() checks them for user input).
struct WinContext {
  TileType win_tile{};
  bool tsumo = false;
  From ron_from = From::kamicha;  // who dealt in (ron only)
  Wind round_wind = Wind::east;
  Wind seat_wind = Wind::east;     // east = the dealer
  bool riichi = false;
  bool double_riichi = false;      // riichi on the first uninterrupted turn (implies riichi)
  bool ippatsu = false;
  bool haitei = false;             // tsumo on the last tile of the live wall
  bool houtei = false;             // ron on the last discard
  bool rinshan = false;            // tsumo on the replacement tile after a kan
  bool chankan = false;            // ron on a kakan tile
  bool tenhou = false;             // dealer's tsumo on the first draw
  bool chiihou = false;            // non-dealer's tsumo on the first uninterrupted draw
  std::array<TileType, kMaxDoraIndicators> dora_indicators{};
  std::uint8_t num_dora_indicators = 0;
  std::array<TileType, kMaxDoraIndicators> ura_indicators{};  // counted only with riichi
  std::uint8_t num_ura_indicators = 0;
  int honba = 0;
  int riichi_sticks = 0;           // sticks on the table, all to the winner

  void add_dora_indicator(TileType t);
  void add_ura_indicator(TileType t);
};

enum class Limit : std::uint8_t { none, mangan, haneman, baiman, sanbaiman, kazoe_yakuman, yakuman };
std::string_view limit_name(Limit l);

struct YakuHan {
  Yaku yaku;
  std::uint8_t han;  // for a yakuman: its value (1, or 2 for a double yakuman)
};

enum class WinStatus : std::uint8_t { win, not_complete, no_yaku };

struct WinResult {
  WinStatus status = WinStatus::not_complete;
  std::array<YakuHan, 24> yaku{};
  std::uint8_t num_yaku = 0;
  int han = 0;      // with dora; 0 for a yakuman hand
  int fu = 0;       // 0 for a yakuman hand
  int yakuman = 0;  // summed yakuman value (0: not a yakuman hand; kazoe counts under limit)
  Limit limit = Limit::none;
  int base = 0;     // basic points: fu * 2^(han+2), or the limit's
  int points = 0;   // what the hand is worth: the ron payment or the sum of the tsumo payments,
                    // without honba and riichi sticks
  int ron_payment = 0;               // ron: paid by the discarder
  int tsumo_from_dealer = 0;         // tsumo by a non-dealer: the dealer's share
  int tsumo_from_non_dealer = 0;     // tsumo: each non-dealer's share
  std::array<int, 4> deltas{};       // point changes by seat wind (0 east .. 3 north), with honba
                                     // (300 per honba) and riichi sticks (1000 each)
  bool is_win() const { return status == WinStatus::win; }
  bool has(Yaku y) const;
};

// hand.closed includes the winning tile.
WinResult score_win(const Hand& hand, const WinContext& ctx, const ScoringRules& rules);

// Throws hydra::Error when the situation contradicts the hand or itself (user input): e.g.
// riichi with an open meld, ippatsu without riichi, haitei on a ron, a winning tile not in the hand.
void validate_win(const Hand& hand, const WinContext& ctx);

// Basic points to payments. The ceilings to 100 are per payment, as at the table.
int ceil100(int x);
int base_points(int han, int fu, const ScoringRules& rules, Limit* limit = nullptr);
// What a hand of `base` basic points is worth without honba and sticks (WinResult::points).
int points_of(int base, bool dealer, bool tsumo);

// Nagashi mangan at an exhaustive draw: paid like a mangan tsumo, without honba; the riichi
// sticks stay on the table. Deltas by seat wind.
std::array<int, 4> nagashi_mangan_deltas(Wind winner);

}  // namespace hydra::game
