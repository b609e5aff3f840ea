// The one-pass discard and ukeire analysis behind channels 9-10 (game::discard_shanten, ukeire)
// against the plain reference: the shanten of every changed hand computed from scratch with
// shanten_best. Random hands of every closed size, drawn from a few kinds at a time so that
// one-suit, honour-heavy and quad-holding shapes (the table edges) come up often.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "hydra/game/rng.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/game/shanten.hpp"
#include "hydra/common/index.hpp"

namespace hydra::encoder {
namespace {

using game::TileCounts;

// `total` tiles from `kinds` random types (at most 4 copies each), or false if they do not fit.
bool random_hand(game::Xoshiro256ss& rng, int total, TileCounts& c) {
  std::array<int, 34> order{};
  for (int t = 0; t < 34; ++t) order[ix(t)] = t;
  for (std::uint32_t i = 0; i < 33; ++i) std::swap(order[i], order[i + rng.below(34 - i)]);
  const std::uint32_t kinds = 1 + rng.below(34);
  if (4 * static_cast<int>(kinds) < total) return false;
  c = {};
  for (int placed = 0; placed < total;) {
    const auto t = static_cast<std::size_t>(order[rng.below(kinds)]);
    if (c[t] < 4) {
      ++c[t];
      ++placed;
    }
  }
  return true;
}

TEST(DiscardAnalysis, EveryDiscardMatchesTheShantenOfTheSmallerHand) {
  game::Xoshiro256ss rng(game::stream_key(game::MasterSeed{1}, "discard-analysis"));
  int hands = 0, fourteen = 0;
  while (hands < 20000) {
    const int total = std::array{2, 5, 8, 11, 14, 14, 14, 14}[rng.below(8)];
    TileCounts c;
    if (!random_hand(rng, total, c)) continue;
    ++hands;
    fourteen += total == 14;
    const game::DiscardShanten d = game::discard_shanten(c);
    int best = game::kNoShanten;
    for (std::size_t t = 0; t < 34; ++t) {
      if (c[t] == 0) {
        ASSERT_EQ(d.after[t], game::kNoShanten) << game::to_compact(c) << " discard " << t;
        continue;
      }
      TileCounts less = c;
      --less[t];
      const int want = game::shanten_best(less);
      ASSERT_EQ(d.after[t], want) << game::to_compact(c) << " discard " << t;
      best = std::min(best, want);
    }
    ASSERT_EQ(d.best, best) << game::to_compact(c);
  }
  EXPECT_GT(fourteen, 9000);
}

TEST(DiscardAnalysis, UkeireIsEveryDrawThatLowersTheShanten) {
  game::Xoshiro256ss rng(game::stream_key(game::MasterSeed{1}, "ukeire-analysis"));
  int hands = 0;
  while (hands < 10000) {
    const int total = std::array{1, 4, 7, 10, 13, 13, 13}[rng.below(7)];
    TileCounts c;
    if (!random_hand(rng, total, c)) continue;
    ++hands;
    TileCounts visible = c;  // some extra copies seen elsewhere, never above 4
    for (auto& v : visible) v = static_cast<std::uint8_t>(v + rng.below(5U - v));
    const game::Ukeire u = game::ukeire(c, visible);
    const int own = game::shanten_best(c);
    ASSERT_EQ(u.shanten, own);
    game::TileMask tiles;
    int unseen = 0;
    for (std::size_t t = 0; t < 34; ++t) {
      if (c[t] == 4) continue;
      TileCounts more = c;
      ++more[t];
      if (game::shanten_best(more) < own) {
        tiles.insert(game::TileType(static_cast<int>(t)));
        unseen += 4 - visible[t];
      }
    }
    ASSERT_EQ(u.tiles, tiles) << game::to_compact(c);
    ASSERT_EQ(u.unseen, unseen) << game::to_compact(c);
  }
}

}  // namespace
}  // namespace hydra::encoder
