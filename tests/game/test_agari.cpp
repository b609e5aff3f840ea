// Winning shapes and waits: decompositions counted by hand, waits of classic shapes, and two
// invariants against the independent shanten tables: a 14-tile hand is complete exactly when its
// shanten is -1, and the waits of a 13-tile hand are exactly the draws that make it complete.

#include <gtest/gtest.h>

#include <random>

#include "hydra/game/agari.hpp"
#include "hydra/game/shanten.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {
namespace {

int count_decompositions(const TileCounts& c) {
  int n = 0;
  for_each_decomposition(c, [&](const Decomposition& d) {
    ++n;
    // Every decomposition uses exactly the tiles it was given.
    TileCounts back{};
    back[d.pair] += 2;
    for (int i = 0; i < d.num_sets; ++i) {
      const ClosedSet s = d.sets[ix(i)];
      for (int k = 0; k < 3; ++k) back[static_cast<std::size_t>(s.tile + (s.kind == SetKind::run ? k : 0))] += 1;
    }
    EXPECT_EQ(back, c);
  });
  return n;
}

TEST(Agari, DecompositionsCountedByHand) {
  // 111 222 333m or 123m x3, with 456p 99s.
  EXPECT_EQ(count_decompositions(parse_counts("111222333m456p99s")), 2);
  // 22334455667788m: the pair is 22 (345 345 678 678), 55 (234 234 678 678) or 88
  // (234 234 567 567); no other pair leaves runs.
  EXPECT_EQ(count_decompositions(parse_counts("22334455667788m")), 3);
  // Honours only split one way; a lone honour never fits.
  EXPECT_EQ(count_decompositions(parse_counts("111222333444z55z")), 1);
  EXPECT_EQ(count_decompositions(parse_counts("123m456p789s11z2z3z")), 0);
  // With melds declared the closed part is smaller: 3n+2 tiles.
  EXPECT_EQ(count_decompositions(parse_counts("234m55p")), 1);
}

TEST(Agari, Forms) {
  EXPECT_TRUE(is_chiitoitsu(parse_counts("1122m3344p5566s77z")));
  EXPECT_FALSE(is_chiitoitsu(parse_counts("1111m3344p5566s77z")));  // four of a kind are not two pairs
  EXPECT_TRUE(is_kokushi(parse_counts("119m19p19s1234567z")));
  EXPECT_FALSE(is_kokushi(parse_counts("19m19p19s1234567z")));  // 13 tiles
  EXPECT_TRUE(is_agari(parse_counts("1122m3344p5566s77z")));
  EXPECT_FALSE(is_agari(parse_counts("123m456p789s11z2z3z")));
}

std::string waits_of(const std::string& hand) {
  const TileMask w = winning_tiles(parse_counts(hand));
  std::vector<Pai> tiles;
  for (int t = 0; t < kNumTileTypes; ++t)
    if (w.contains(TileType(t))) tiles.emplace_back(TileType(t));
  return to_compact(tiles);
}

TEST(Agari, WaitsOfClassicShapes) {
  EXPECT_EQ(waits_of("23m456p789s123s55z"), "14m");            // ryanmen
  EXPECT_EQ(waits_of("1234m456p789s123s"), "14m");             // nobetan
  EXPECT_EQ(waits_of("1112345678999m"), "123456789m");         // junsei chuuren: nine-sided
  EXPECT_EQ(waits_of("19m19p19s1234567z"), "19m19p19s1234567z");  // kokushi: thirteen-sided
  EXPECT_EQ(waits_of("1122m3344p5566s7z"), "7z");              // chiitoitsu tanki
  EXPECT_EQ(waits_of("2223m456p789s123s"), "134m");           // 222+3 tanki, 22+23 ryanmen
  // Waiting only on a fifth copy is no wait at all.
  EXPECT_EQ(waits_of("1111m234p567p789s"), "");
}

// Random hands built near completion (four sets and a pair, cut to size, some tiles swapped) so
// both answers occur often.
TileCounts random_hand(std::mt19937& rng, int tiles) {
  for (;;) {
    TileCounts c{};
    std::vector<int> bag;
    auto add = [&](int t) { bag.push_back(t); };
    while (bag.size() < 12) {
      const int t = static_cast<int>(rng() % 34);
      if (rng() % 2 && t < 27 && t % 9 <= 6) {
        add(t), add(t + 1), add(t + 2);
      } else {
        add(t), add(t), add(t);
      }
    }
    const int p = static_cast<int>(rng() % 34);
    add(p), add(p);
    while (static_cast<int>(bag.size()) > tiles) bag.erase(bag.begin() + static_cast<long>(rng() % bag.size()));
    const int swaps = static_cast<int>(rng() % 3);
    for (int k = 0; k < swaps; ++k) bag[rng() % bag.size()] = static_cast<int>(rng() % 34);
    bool ok = true;
    for (int t : bag) ok = ok && ++c[ix(t)] <= 4;
    if (ok) return c;
  }
}

TEST(Agari, CompleteExactlyWhenShantenIsMinusOne) {
  std::mt19937 rng(20261122);
  int complete = 0;
  for (int i = 0; i < 100000; ++i) {
    const TileCounts c = random_hand(rng, 14);
    const bool agari = is_agari(c);
    complete += agari;
    ASSERT_EQ(agari, shanten_best(c) == -1) << to_compact(c);
  }
  EXPECT_GT(complete, 10000);  // the generator does exercise both answers
}

TEST(Agari, WaitsAreTheDrawsThatComplete) {
  std::mt19937 rng(7);
  int tenpai = 0;
  for (int i = 0; i < 20000; ++i) {
    TileCounts c = random_hand(rng, 13);
    const TileMask w = winning_tiles(c);
    for (int t = 0; t < kNumTileTypes; ++t) {
      auto& v = c[ix(t)];
      if (v == 4) {
        ASSERT_FALSE(w.contains(TileType(t)));
        continue;
      }
      ++v;
      ASSERT_EQ(w.contains(TileType(t)), shanten_best(c) == -1) << to_compact(c) << " + " << t;
      --v;
    }
    tenpai += !w.empty();
  }
  EXPECT_GT(tenpai, 2000);
}

}  // namespace
}  // namespace hydra::game
