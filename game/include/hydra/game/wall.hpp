#pragma once

// The wall of one kyoku: 136 tile ids in a fixed layout, index by index (docs/WALL.md):
//
//   0 .. 51   the deal. Three rounds of 4 tiles per seat, dealer first, then 1 tile each:
//             round r (0..2), seat s places after the dealer: indices 16r + 4s .. 16r + 4s + 3;
//             the last tile of seat s is index 48 + s.
//   52 .. 121 the live wall, drawn in index order: the k-th draw (0-based) is index 52 + k.
//             Each kan moves the END of the live wall into the dead wall (which stays 14 tiles),
//             so after K kans the last drawable tile (haitei) is index 121 - K.
//   122 .. 135 the dead wall; offset d = index - 122:
//             d 0..3   rinshan tiles, drawn in this order by the 1st..4th kan
//             d 4, 6, 8, 10, 12   dora indicators 1..5 (the first is revealed at the start,
//                                 one more per kan)
//             d 5, 7, 9, 11, 13   ura-dora indicators 1..5 (under the matching dora indicator;
//                                 as many count as dora indicators are revealed)
//
// A seeded wall is the identity 0..135 shuffled by Fisher-Yates with xoshiro256** keyed by the
// kyoku's wall key (rng.hpp, seed.hpp). 70 tiles are left to draw after the deal.
// The type is a plain fixed-size value (copyable, no allocation) for the game engine.

#include <array>
#include <span>

#include "hydra/game/rng.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/game/tile.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {

class Wall {
 public:
  static constexpr int kDealTiles = 52;
  static constexpr int kLiveBegin = 52;
  static constexpr int kDeadBegin = 122;
  static constexpr int kLiveTiles = kDeadBegin - kLiveBegin;  // 70
  static constexpr int kMaxKans = 4;
  static constexpr int kMaxIndicators = 5;
  using Tiles = std::array<Tile, kNumTiles>;

  // Layout helpers (indices into tiles()).
  static constexpr int deal_index(int seat_offset, int k) {  // k-th of the 13 starting tiles
    return k < 12 ? 16 * (k / 4) + 4 * seat_offset + k % 4 : 48 + seat_offset;
  }
  static constexpr int rinshan_index(int kan) { return kDeadBegin + kan; }
  static constexpr int dora_index(int i) { return kDeadBegin + 4 + 2 * i; }
  static constexpr int ura_index(int i) { return kDeadBegin + 5 + 2 * i; }

  // A wall in this layout; throws hydra::Error unless `tiles` is a permutation of 0..135.
  explicit Wall(const Tiles& tiles);
  // The seeded wall of a kyoku.
  static Tiles shuffled(const WallKey& key);
  static Wall from_key(const WallKey& key) { return Wall(shuffled(key)); }

  const Tiles& tiles() const { return tiles_; }
  // The 13 starting tiles of the seat `seat_offset` places after the dealer (0 = dealer).
  std::array<Tile, 13> haipai(int seat_offset) const;

  // Tiles the live wall still holds (70 after the deal, minus draws, minus kans).
  int live_left() const { return kLiveTiles - draws_ - kans_; }
  Tile draw();          // next live tile; live_left() must be > 0
  Tile draw_rinshan();  // after a kan: next rinshan tile; at most 4, and live_left() must be > 0
  // True right after a draw() that took the last live tile: that tsumo is haitei, and the
  // discard after it is houtei. A rinshan draw is never haitei.
  bool last_draw_was_haitei() const { return live_left() == 0 && !last_was_rinshan_; }

  // Kan dora: the engine calls this when the rules reveal the next indicator (Tenhou: ankan
  // before the rinshan draw, open kans after it). At most one per kan, five in all.
  void reveal_kan_dora();
  int kans() const { return kans_; }

  // Deals the tiles nobody has seen again, in an order drawn from `rng`: the live wall still to
  // draw, the rinshan tiles still to draw, the unrevealed dora indicators and every ura-dora
  // indicator (their positions keep their roles). Given every hand and everything revealed, each
  // order of those tiles was equally likely, so the wall after this is a fresh draw of the same
  // kyoku's future (self-play's greedy play-outs, docs/PPO.md).
  void shuffle_unseen(Xoshiro256ss& rng);
  // The positions shuffle_unseen deals again, in index order, into `at`; returns how many.
  int unseen_positions(std::array<int, kNumTiles>& at) const;
  // Puts `tiles` at those positions, in that order (tiles.size() must be their number): the
  // table's redeal of what one seat cannot see (Table::redeal_hidden).
  void set_unseen(std::span<const Tile> tiles);
  int indicators_revealed() const { return revealed_; }
  std::span<const Tile> dora_indicators() const { return {dora_.data(), ix(revealed_)}; }
  std::span<const Tile> ura_indicators() const { return {ura_.data(), ix(revealed_)}; }

 private:
  Tiles tiles_;
  std::array<Tile, kMaxIndicators> dora_{};
  std::array<Tile, kMaxIndicators> ura_{};
  int draws_ = 0;
  int kans_ = 0;
  int revealed_ = 1;
  bool last_was_rinshan_ = false;
};

}  // namespace hydra::game
