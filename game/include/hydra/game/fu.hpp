#pragma once

// Fu (minipoints) of a normal-form interpretation, rule by rule:
//   pinfu: 20 on tsumo (no tsumo fu), 30 on ron (20 + 10 closed ron);
//   otherwise 20, +10 closed ron, +2 tsumo, +2 for a kanchan, penchan or tanki wait,
//   the pair (+2 per dragon / seat wind / round wind, a double-wind pair per the rules),
//   each set: triplet 2, of terminals or honours x2, concealed x2, quad x4;
//   rounded up to 10, and an open hand that ends at 20 (open pinfu shape) scores 30.
// Chiitoitsu is a flat 25 without rounding.

#include <cstdint>

namespace hydra::game {

inline constexpr int kChiitoitsuFu = 25;

enum class WaitKind : std::uint8_t { ryanmen, kanchan, penchan, tanki, shanpon };

// The wait of a run (lowest tile type run_start) completed by `win`, which it contains.
constexpr WaitKind run_wait(int run_start, int win) {
  const int pos = win - run_start;  // 0, 1 or 2
  if (pos == 1) return WaitKind::kanchan;
  const int number = run_start % 9 + 1;
  if ((pos == 2 && number == 1) || (pos == 0 && number == 7)) return WaitKind::penchan;  // 12-3, 7-89
  return WaitKind::ryanmen;
}

constexpr int set_fu(bool yaochu, bool kan, bool concealed) {
  return 2 * (yaochu ? 2 : 1) * (kan ? 4 : 1) * (concealed ? 2 : 1);
}

// Fu of a pair of tile type t (honours 27-33) given the seat and round wind tiles.
constexpr int pair_fu(int t, int seat_wind_tile, int round_wind_tile, int double_wind_fu) {
  if (t >= 31) return 2;
  if (t == seat_wind_tile && t == round_wind_tile) return double_wind_fu;
  return (t == seat_wind_tile || t == round_wind_tile) ? 2 : 0;
}

struct FuParts {
  bool pinfu;
  bool menzen;
  bool tsumo;
  WaitKind wait;
  int set_fu;   // all sets, melds included
  int pair_fu;
};

constexpr int normal_fu(const FuParts& p) {
  if (p.pinfu) return p.tsumo ? 20 : 30;
  int fu = 20 + p.set_fu + p.pair_fu;
  if (p.menzen && !p.tsumo) fu += 10;
  if (p.tsumo) fu += 2;
  if (p.wait == WaitKind::kanchan || p.wait == WaitKind::penchan || p.wait == WaitKind::tanki) fu += 2;
  fu = (fu + 9) / 10 * 10;
  return (!p.menzen && fu == 20) ? 30 : fu;
}

}  // namespace hydra::game
