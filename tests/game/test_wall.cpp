#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "hydra/common/error.hpp"
#include "hydra/game/rng.hpp"
#include "hydra/game/wall.hpp"
#include "wall_golden.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {
namespace {

// A wall whose tile at index i is id i, so every accessor reveals the index it read.
Wall identity_wall() {
  Wall::Tiles t;
  for (int i = 0; i < kNumTiles; ++i) t[ix(i)] = Tile(i);
  return Wall(t);
}

std::vector<int> ids(std::span<const Tile> tiles) {
  std::vector<int> out;
  for (Tile t : tiles) out.push_back(t.id());
  return out;
}

TEST(WallLayout, DealIsFourFourFourThenOneDealerFirst) {
  const Wall w = identity_wall();
  const std::array<Tile, 13> dealer = w.haipai(0);
  EXPECT_EQ(ids(dealer), (std::vector<int>{0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35, 48}));
  EXPECT_EQ(ids(w.haipai(3)), (std::vector<int>{12, 13, 14, 15, 28, 29, 30, 31, 44, 45, 46, 47, 51}));
  // The four hands use exactly indices 0..51.
  std::vector<int> all;
  for (int s = 0; s < 4; ++s)
    for (Tile t : w.haipai(s)) all.push_back(t.id());
  std::sort(all.begin(), all.end());
  for (int i = 0; i < Wall::kDealTiles; ++i) EXPECT_EQ(all[ix(i)], i);
}

TEST(WallLayout, LiveDrawsThenHaitei) {
  Wall w = identity_wall();
  EXPECT_EQ(w.live_left(), 70);
  EXPECT_EQ(w.draw().id(), 52);
  EXPECT_EQ(w.draw().id(), 53);
  EXPECT_EQ(w.live_left(), 68);
  EXPECT_FALSE(w.last_draw_was_haitei());
  Tile last;
  while (w.live_left() > 0) last = w.draw();
  EXPECT_EQ(last.id(), 121);  // no kan: the haitei is the last live index
  EXPECT_TRUE(w.last_draw_was_haitei());
  EXPECT_THROW(w.draw(), InvariantError);
}

TEST(WallLayout, DeadWallIndicatorsAndRinshan) {
  Wall w = identity_wall();
  EXPECT_EQ(ids(w.dora_indicators()), (std::vector<int>{126}));
  EXPECT_EQ(ids(w.ura_indicators()), (std::vector<int>{127}));
  // Ankan: dora first, then the rinshan tile; open kan: rinshan first, then dora.
  w.reveal_kan_dora();
  EXPECT_EQ(w.draw_rinshan().id(), 122);
  EXPECT_EQ(w.draw_rinshan().id(), 123);
  w.reveal_kan_dora();
  EXPECT_EQ(w.draw_rinshan().id(), 124);
  w.reveal_kan_dora();
  EXPECT_EQ(w.draw_rinshan().id(), 125);
  w.reveal_kan_dora();
  EXPECT_EQ(ids(w.dora_indicators()), (std::vector<int>{126, 128, 130, 132, 134}));
  EXPECT_EQ(ids(w.ura_indicators()), (std::vector<int>{127, 129, 131, 133, 135}));
  EXPECT_EQ(w.kans(), 4);
  EXPECT_THROW(w.draw_rinshan(), InvariantError);  // no fifth rinshan tile
  EXPECT_THROW(w.reveal_kan_dora(), InvariantError);
  // Four kans shorten the live wall by four: 66 draws, haitei at index 117.
  EXPECT_EQ(w.live_left(), 66);
  Tile last;
  while (w.live_left() > 0) last = w.draw();
  EXPECT_EQ(last.id(), 117);
  EXPECT_TRUE(w.last_draw_was_haitei());
}

TEST(WallLayout, RinshanIsNeverHaiteiAndNoKanOnAnEmptyWall) {
  Wall w = identity_wall();
  for (int i = 0; i < 69; ++i) w.draw();
  EXPECT_EQ(w.live_left(), 1);
  w.draw_rinshan();  // a kan with one live tile left: it moves into the dead wall
  EXPECT_EQ(w.live_left(), 0);
  EXPECT_FALSE(w.last_draw_was_haitei());
  EXPECT_THROW(w.draw_rinshan(), InvariantError);
}

TEST(WallLayout, KanDoraNeverRunsAheadOfKans) {
  Wall w = identity_wall();
  w.reveal_kan_dora();                             // ankan: before its rinshan draw
  EXPECT_THROW(w.reveal_kan_dora(), InvariantError);  // a second one needs a second kan
}

// Play-outs deal the unseen tiles again: after ten draws and a kan (its indicator revealed, its
// rinshan tile drawn), every position anyone has seen keeps its tile, the unseen positions hold
// the same tiles in a new order, and over many shuffles every unseen tile (live, rinshan,
// unrevealed dora, ura) turns up as the next draw about equally often.
TEST(Wall, ShuffleUnseenDealsOnlyTheUnseenTilesAgain) {
  Wall start = identity_wall();
  for (int i = 0; i < 10; ++i) start.draw();
  start.reveal_kan_dora();
  EXPECT_EQ(start.draw_rinshan().id(), 122);
  std::vector<int> unseen;
  for (int i = 62; i < 122; ++i) unseen.push_back(i);
  for (int i : {123, 124, 125, 130, 132, 134, 127, 129, 131, 133, 135}) unseen.push_back(i);
  std::sort(unseen.begin(), unseen.end());
  ASSERT_EQ(unseen.size(), 71u);

  Xoshiro256ss rng(sha256("wall: shuffle the unseen tiles"));
  std::map<int, int> next_draw;
  const int rounds = 3000;
  for (int r = 0; r < rounds; ++r) {
    Wall w = start;
    w.shuffle_unseen(rng);
    (void)Wall(w.tiles());  // still a permutation of 0..135
    std::vector<int> at_unseen;
    for (int i = 0; i < kNumTiles; ++i) {
      const bool hidden = std::binary_search(unseen.begin(), unseen.end(), i);
      if (hidden) at_unseen.push_back(w.tiles()[ix(i)].id());
      else ASSERT_EQ(w.tiles()[ix(i)].id(), i) << "a seen position changed: " << i;
    }
    std::sort(at_unseen.begin(), at_unseen.end());
    ASSERT_EQ(at_unseen, unseen);
    EXPECT_EQ(ids(w.dora_indicators()), (std::vector<int>{126, 128}));
    EXPECT_EQ(ids(w.ura_indicators()),
              (std::vector<int>{w.tiles()[127].id(), w.tiles()[129].id()}));
    EXPECT_EQ(w.live_left(), start.live_left());
    ++next_draw[w.draw().id()];
  }
  // 3000 draws over 71 tiles: about 42 each (a shuffle that kept the dead wall apart would never
  // draw an ura indicator's tile).
  ASSERT_EQ(next_draw.size(), unseen.size());
  for (const auto& [id, n] : next_draw) {
    EXPECT_GT(n, 15) << "tile " << id;
    EXPECT_LT(n, 80) << "tile " << id;
  }
}

TEST(Wall, RejectsNonPermutations) {
  Wall::Tiles t;
  for (int i = 0; i < kNumTiles; ++i) t[ix(i)] = Tile(i);
  t[7] = Tile(8);
  EXPECT_THROW((Wall(t)), Error);
  t[7] = Tile(200);
  EXPECT_THROW((Wall(t)), Error);
}

TEST(WallGolden, ReproducesEveryCheckedInWall) {
  const auto golden = testing::load_wall_golden();
  ASSERT_GE(golden.size(), 1000u);
  for (const auto& g : golden) {
    const Wall::Tiles t = Wall::shuffled(wall_key(game_key(g.master, g.game), g.kyoku, g.honba));
    ASSERT_EQ(t, g.tiles) << "line " << g.line;
  }
}

TEST(WallGolden, EveryWallIsAPermutation) {
  for (const auto& g : testing::load_wall_golden()) {
    std::array<bool, kNumTiles> seen{};
    for (Tile t : g.tiles) {
      ASSERT_LT(t.id(), kNumTiles);
      EXPECT_FALSE(seen[ix(t.id())]) << "line " << g.line;
      seen[ix(t.id())] = true;
    }
  }
}

TEST(WallGolden, SeededWallMatchesTheWallType) {
  const WallKey key = wall_key(game_key(MasterSeed{3}, 1), 4, 0);
  Wall w = Wall::from_key(key);
  const Wall::Tiles t = Wall::shuffled(key);
  EXPECT_EQ(w.tiles(), t);
  EXPECT_EQ(w.haipai(1)[0], t[4]);
  EXPECT_EQ(w.draw(), t[52]);
  EXPECT_EQ(w.dora_indicators()[0], t[126]);
}

}  // namespace
}  // namespace hydra::game
