#pragma once

// Winning shapes. A complete hand is 4 sets and a pair (the "normal" form, counting declared
// melds as sets), seven distinct pairs (chiitoitsu) or the thirteen orphans (kokushi).
//
// for_each_decomposition() enumerates every distinct way the CLOSED tiles split into sets and one
// pair, without allocating: scoring tries each one (and each place the winning tile can sit in
// it) and keeps the best. At the lowest remaining tile it chooses how many copies go to a
// triplet (0/1) and to the pair (0/1); the rest must start runs, so each split is seen once.

#include <array>
#include <bit>
#include <cstdint>

#include "hydra/game/shanten.hpp"  // TileMask
#include "hydra/game/tile.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {

enum class SetKind : std::uint8_t { run, triplet };

struct ClosedSet {
  SetKind kind;
  std::uint8_t tile;  // lowest tile type of the set
};

struct Decomposition {
  std::array<ClosedSet, 4> sets{};  // the closed sets, in order of their lowest tile
  std::uint8_t num_sets = 0;
  std::uint8_t pair = 0;  // tile type of the pair
};

namespace detail {

// `held` has bit t set while c[t] > 0, so the lowest remaining tile is one bit scan away.
template <class F>
void decompose_suits(std::array<std::uint8_t, 27>& c, std::uint32_t held, Decomposition& d, int pair, F& f) {
  if (held == 0) {
    if (pair >= 0) {
      d.pair = static_cast<std::uint8_t>(pair);
      f(static_cast<const Decomposition&>(d));
    }
    return;
  }
  const int i = std::countr_zero(held);
  const auto ui = ix(i);
  const int n = c[ui];
  const bool can_run = i % 9 <= 6;
  const int n1 = can_run ? c[ui + 1] : 0;
  const int n2 = can_run ? c[ui + 2] : 0;
  const std::uint8_t saved = d.num_sets;
  for (int t = 0; t <= 1; ++t) {
    for (int p = 0; p <= 1; ++p) {
      if (p == 1 && pair >= 0) continue;
      const int r = n - 3 * t - 2 * p;
      if (r < 0 || r > n1 || r > n2 || saved + t + r > 4) continue;
      c[ui] = 0;
      if (r > 0) {
        c[ui + 1] = static_cast<std::uint8_t>(c[ui + 1] - r);
        c[ui + 2] = static_cast<std::uint8_t>(c[ui + 2] - r);
      }
      if (t == 1) d.sets[d.num_sets++] = {SetKind::triplet, static_cast<std::uint8_t>(i)};
      for (int k = 0; k < r; ++k) d.sets[d.num_sets++] = {SetKind::run, static_cast<std::uint8_t>(i)};
      std::uint32_t rest = held & ~(1U << i);
      if (r > 0) {
        if (c[ui + 1] == 0) rest &= ~(2U << i);
        if (c[ui + 2] == 0) rest &= ~(4U << i);
      }
      decompose_suits(c, rest, d, p == 1 ? i : pair, f);
      d.num_sets = saved;
      c[ui] = static_cast<std::uint8_t>(n);
      if (r > 0) {
        c[ui + 1] = static_cast<std::uint8_t>(c[ui + 1] + r);
        c[ui + 2] = static_cast<std::uint8_t>(c[ui + 2] + r);
      }
    }
  }
}

}  // namespace detail

// Calls f(const Decomposition&) for each normal-form split of the closed tiles (3n+2 of them) into
// n sets and a pair. Honour sets come first in `sets`, then suited sets by tile.
template <class F>
void for_each_decomposition(const TileCounts& closed, F&& f) {
  Decomposition d;
  int pair = -1;
  for (int t = 27; t < 34; ++t) {
    switch (closed[ix(t)]) {
      case 0: break;
      case 2:
        if (pair >= 0) return;
        pair = t;
        break;
      case 3:
        if (d.num_sets == 4) return;
        d.sets[d.num_sets++] = {SetKind::triplet, static_cast<std::uint8_t>(t)};
        break;
      default: return;  // 1 or 4 copies of an honour never fit the normal form
    }
  }
  // Each suit holds whole sets plus at most the one pair: its size mod 3 is 0, or 2 for the pair.
  std::array<std::uint8_t, 27> c{};
  std::uint32_t held = 0;
  bool pair_suit = pair >= 0;
  for (int s = 0; s < 3; ++s) {
    int sum = 0;
    for (int k = 0; k < 9; ++k) {
      const auto i = static_cast<std::size_t>(s * 9 + k);
      c[i] = closed[i];
      sum += c[i];
      held |= (c[i] > 0 ? 1U : 0U) << i;
    }
    if (sum % 3 == 1) return;
    if (sum % 3 == 2) {
      if (pair_suit) return;
      pair_suit = true;
    }
  }
  detail::decompose_suits(c, held, d, pair, f);
}

bool is_normal_agari(const TileCounts& closed);  // 3n+2 closed tiles, normal form
bool is_chiitoitsu(const TileCounts& closed);    // 14 closed tiles, seven distinct pairs
bool is_kokushi(const TileCounts& closed);       // 14 closed tiles, thirteen orphans
bool is_agari(const TileCounts& closed);         // any of the three

// The tile types that complete a 3n+1 closed hand. A type the hand already holds four times is
// not a wait (there is no fifth copy), so a hand waiting only on such a tile has no waits.
TileMask winning_tiles(const TileCounts& closed);

}  // namespace hydra::game
