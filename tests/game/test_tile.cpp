#include <gtest/gtest.h>

#include "hydra/common/error.hpp"
#include "hydra/game/tile.hpp"

namespace hydra::game {
namespace {

TEST(Tile, TypesAndTenhouRedFives) {
  EXPECT_EQ(Tile(16).type(), TileType(4));  // 5m
  EXPECT_TRUE(Tile(16).is_red());
  EXPECT_FALSE(Tile(17).is_red());
  EXPECT_TRUE(Tile(52).is_red());   // 5p
  EXPECT_TRUE(Tile(88).is_red());   // 5s
  EXPECT_EQ(Tile(135).type(), TileType(33));
  int reds = 0;
  for (int id = 0; id < kNumTiles; ++id) reds += Tile(id).is_red();
  EXPECT_EQ(reds, 3);
}

TEST(Tile, Classification) {
  EXPECT_TRUE(TileType(0).is_terminal());
  EXPECT_TRUE(TileType(26).is_terminal());
  EXPECT_FALSE(TileType(27).is_terminal());
  EXPECT_TRUE(TileType(27).is_yaochu());
  EXPECT_TRUE(TileType(30).is_wind());
  EXPECT_TRUE(TileType(31).is_dragon());
  EXPECT_EQ(TileType(13).number(), 5);
  EXPECT_EQ(TileType(13).suit(), Suit::pin);
  EXPECT_EQ(TileType::suited(Suit::sou, 9), TileType(26));
}

TEST(Tile, DoraIndicatorWrapsWithinItsGroup) {
  EXPECT_EQ(TileType(8).dora_next(), TileType(0));    // 9m -> 1m
  EXPECT_EQ(TileType(17).dora_next(), TileType(9));   // 9p -> 1p
  EXPECT_EQ(TileType(30).dora_next(), TileType(27));  // N -> E
  EXPECT_EQ(TileType(33).dora_next(), TileType(31));  // C -> P
  EXPECT_EQ(TileType(31).dora_next(), TileType(32));  // P -> F
}

TEST(Tile, MjaiNamesRoundTrip) {
  for (int i = 0; i < 38; ++i) EXPECT_EQ(parse_mjai(mjai_name(Pai::from_index(i))).index(), i);
  EXPECT_EQ(parse_mjai("5pr"), Pai(TileType(13), true));
  EXPECT_EQ(parse_mjai("C").type(), TileType(33));
  EXPECT_EQ(Pai(Tile(88)), parse_mjai("5sr"));
  EXPECT_THROW(parse_mjai("0m"), Error);
}

TEST(Tile, CompactNotation) {
  const auto tiles = parse_compact("123m406p789s1157z");
  ASSERT_EQ(tiles.size(), 13u);
  EXPECT_TRUE(tiles[4].is_red());
  EXPECT_EQ(tiles[4].type(), TileType(13));
  EXPECT_EQ(tiles[12].type(), TileType(33));  // 7z = chun
  EXPECT_EQ(to_compact(tiles), "123m406p789s1157z");  // red five sorts as a five
  const auto counts = parse_counts("11123455678999m");
  EXPECT_EQ(counts[0], 3);
  EXPECT_EQ(counts[4], 2);
  EXPECT_EQ(to_compact(counts), "11123455678999m");
  EXPECT_THROW(parse_compact("123"), Error);
  EXPECT_THROW(parse_compact("8z"), Error);
  EXPECT_THROW(parse_counts("11111m"), Error);
}

}  // namespace
}  // namespace hydra::game
