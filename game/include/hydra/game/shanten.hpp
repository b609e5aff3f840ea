#pragma once

// Shanten (tiles away from tenpai; -1 = a complete hand), ukeire and discard analysis.
//
// Every function takes the CLOSED part of a hand as 34 counts: open melds (chi, pon, kans) are
// removed by the caller, so a hand with k melds declared holds 13 - 3k or 14 - 3k closed tiles.
// Preconditions (always checked, InvariantError on violation: a caller bug, not user input):
// every count <= 4 and the closed total is 3n+1 or 3n+2 with n <= 4.
//
// Normal shanten is exact "replacement number - 1": the fewest tiles to swap to reach n melds and
// one pair, where a target never needs a fifth copy of a kind. It is table-driven: one table per
// suit shape (9 counts) and one for the honours (7 counts) hold, for m = 0..4 melds with and
// without a pair, the fewest tiles that suit is missing; a hand combines its four entries by a
// min-plus convolution. The tables are built once, on first use (see docs/SHANTEN.md).

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "hydra/game/tile.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {

// Chiitoitsu and kokushi exist only for 13 or 14 closed tiles (a fully closed hand); for any
// other closed count their shanten is this sentinel, larger than any real shanten (<= 8).
inline constexpr int kNoShanten = 64;

int shanten_normal(const TileCounts& closed);
int shanten_chiitoi(const TileCounts& closed);  // kNoShanten unless 13/14 tiles
int shanten_kokushi(const TileCounts& closed);  // kNoShanten unless 13/14 tiles

struct Shanten {
  int normal = kNoShanten;
  int chiitoi = kNoShanten;
  int kokushi = kNoShanten;
  constexpr int best() const {
    const int a = normal < chiitoi ? normal : chiitoi;
    return a < kokushi ? a : kokushi;
  }
};

Shanten shanten_all(const TileCounts& closed);

// The best shanten over the three forms (shanten_all(closed).best(), a little cheaper).
int shanten_best(const TileCounts& closed);

// A set of tile types (bit t = TileType(t)); a plain value, no allocation.
class TileMask {
 public:
  constexpr TileMask() = default;
  constexpr explicit TileMask(std::uint64_t bits) : bits_(bits) {}
  constexpr std::uint64_t bits() const { return bits_; }
  constexpr bool contains(TileType t) const { return (bits_ >> t.index()) & 1U; }
  constexpr void insert(TileType t) { bits_ |= std::uint64_t{1} << t.index(); }
  constexpr int size() const { return std::popcount(bits_); }
  constexpr bool empty() const { return bits_ == 0; }
  friend constexpr bool operator==(TileMask, TileMask) = default;

 private:
  std::uint64_t bits_ = 0;
};

// Ukeire of a 3n+1 closed hand: the tile types whose draw lowers its best shanten (over normal,
// chiitoitsu and kokushi), and how many copies of them are still unseen. `visible` counts every
// tile the player can see INCLUDING the hand itself (own hand, all rivers, melds, dora
// indicators), so unseen copies of t = 4 - visible[t]; pass the hand twice when nothing else is
// known. A type held four times is never accepted (there is no fifth copy to draw).
struct Ukeire {
  int shanten = kNoShanten;  // best shanten of the hand as given
  TileMask tiles;            // accepted types
  int unseen = 0;            // sum over accepted types of 4 - visible[t]
};

Ukeire ukeire(const TileCounts& closed, const TileCounts& visible);

// ukeire() with the answers remembered. Its shanten and accepted types depend on the closed hand
// alone, so a hand asked about again costs one table probe and the sum of its unseen copies from
// `visible`. A direct-mapped table of 2^bits hands (each slot keeps the last hand that landed in
// it). Worth it where the same hands come back: the greedy bot's play-outs (selfplay/greedy.cpp).
// Not synchronised: one per thread.
class UkeireCache {
 public:
  explicit UkeireCache(int bits = 12);
  Ukeire operator()(const TileCounts& closed, const TileCounts& visible);
  std::int64_t hits() const { return hits_; }
  std::int64_t misses() const { return misses_; }

 private:
  struct Slot {
    std::uint64_t lo = ~std::uint64_t{0}, hi = ~std::uint64_t{0};  // the hand, 3 bits a count; all ones: empty
    std::uint64_t tiles = 0;
    int shanten = kNoShanten;
  };
  std::vector<Slot> slots_;
  int shift_;
  std::int64_t hits_ = 0, misses_ = 0;
};

// For a 3n+2 closed hand (after a draw or a call): the best shanten left after each possible
// discard. after[t] is the best shanten of the hand minus one t, or kNoShanten when t is not held.
struct DiscardShanten {
  std::array<std::int8_t, kNumTileTypes> after{};
  // min over after[]: the 3n+2 hand's own best shanten, except that a complete hand (-1) has
  // best 0 (any discard leaves it tenpai at best).
  int best = kNoShanten;

  // Discards that keep the best shanten reachable now ("efficient discards").
  TileMask efficient() const { return below(best + 1); }
  // Discards that leave a shanten lower than `before` (the shanten before the last draw or
  // call): the new tile helped and this discard keeps the gain ("progress discards").
  TileMask lowering(int before) const { return below(before); }

 private:
  TileMask below(int limit) const {
    TileMask m;
    for (int t = 0; t < kNumTileTypes; ++t)
      if (after[ix(t)] < limit) m.insert(TileType(t));
    return m;
  }
};

DiscardShanten discard_shanten(const TileCounts& closed);

}  // namespace hydra::game
