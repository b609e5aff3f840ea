#pragma once

// Tenhou's walls from their seeds. A Tenhou mjlog starts with
// <SHUFFLE seed="mt19937ar-sha512-n288-base64,...">, and Tenhou's published generator
// (tenhou.net/stat/rand) builds every kyoku's wall from it (docs/WALL.md, "Tenhou's walls"):
//   - the base64 text decodes to 2,496 bytes = 624 little-endian 32-bit words, the key of
//     MT19937's init_by_array (the 2002 reference mt19937ar);
//   - per kyoku, in order: the next 288 MT outputs, as 1,152 little-endian bytes, are hashed by
//     SHA-512 in 9 blocks of 128 bytes; the 9 digests, read as little-endian words, are rnd[0..143];
//   - yama = 0..135 (tile ids), then for i = 0..134: swap(yama[i], yama[i + rnd[i] % (136 - i)]);
//   - the dice: rnd[135] % 6 + 1 and rnd[136] % 6 + 1.
// Tenhou's layout of yama: the deal takes yama[135] downward, 4-tile blocks dealer first, then one
// tile each from yama[87..84]; live draws go down from yama[83]; the dead wall is yama[0..13]:
// rinshan tiles yama[1], [0], [3], [2]; dora indicators yama[5], [7], [9], [11], [13]; ura
// indicators yama[4], [6], [8], [10], [12]. Checked against Tenhou's validation game and real logs
// (tests/data/test_tenhou_wall.cpp), and by `hydra replay --check` on every 2022 Houou log.

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "hydra/game/tile.hpp"
#include "hydra/game/wall.hpp"

namespace hydra::data::tenhou {

inline constexpr std::string_view kShufflePrefix = "mt19937ar-sha512-n288-base64,";
// The older form, 32 hex words ("mt19937ar-sha512-n288,F1504633,..."), whose dead wall Tenhou laid
// out differently: recognised, not rebuilt.
inline constexpr std::string_view kHexShufflePrefix = "mt19937ar-sha512-n288,";

inline constexpr int kSeedWords = 624;
using ShuffleSeed = std::array<std::uint32_t, kSeedWords>;

// The key of a SHUFFLE seed attribute. Throws hydra::Error saying what is wrong: another prefix
// (the hex form named as such), a character outside base64 (with its position), bad padding, or
// a length other than 624 words.
ShuffleSeed parse_shuffle_seed(std::string_view seed);

// MT19937 as the reference mt19937ar.c (2002) gives it, with init_by_array, which std::mt19937
// lacks. Seeded with one word (init_genrand) it equals std::mt19937.
class Mt19937ar {
 public:
  explicit Mt19937ar(std::uint32_t seed);              // init_genrand
  explicit Mt19937ar(std::span<const std::uint32_t> key);  // init_by_array; key not empty
  std::uint32_t next();                                // genrand_int32

 private:
  static constexpr std::size_t kN = 624;
  void init_genrand(std::uint32_t seed);
  void twist();
  std::array<std::uint32_t, kN> mt_{};
  std::size_t i_ = kN;
};

// One kyoku's wall in Tenhou's order.
struct TenhouWall {
  std::array<game::Tile, game::kNumTiles> yama{};
  std::array<int, 2> dice{};  // 1..6 each; INIT's `seed` logs each minus one

  // Where the tile at game::Wall index `index` (wall.hpp's layout) lies in yama: the deal and the
  // live wall read yama downward from 135 (game index 0 .. 121 = yama 135 .. 14), and dead-wall
  // offset d (game index 122 + d) is yama[d ^ 1].
  static constexpr int yama_index(int index) {
    return index < game::Wall::kDeadBegin ? game::kNumTiles - 1 - index : (index - game::Wall::kDeadBegin) ^ 1;
  }

  // The 13 starting tiles of the seat `seat_offset` places after the dealer, in dealing order.
  std::array<game::Tile, 13> haipai(int seat_offset) const;
  game::Tile live_draw(int k) const;       // the k-th live draw, k = 0..69: yama[83 - k]
  game::Tile rinshan(int kan) const;       // the rinshan tile of the kan-th kan, 0..3
  game::Tile dora_indicator(int i) const;  // i = 0..4
  game::Tile ura_indicator(int i) const;   // under dora indicator i
  // The wall in game::Wall's layout: game::Wall(to_game_wall()) deals, draws and reveals the
  // same tiles as Tenhou.
  game::Wall::Tiles to_game_wall() const;
};

// The walls of one game, kyoku after kyoku (a kyoku replayed for honba gets a new wall too).
class WallGenerator {
 public:
  explicit WallGenerator(const ShuffleSeed& seed) : mt_(seed) {}
  TenhouWall next();

 private:
  Mt19937ar mt_;
};

}  // namespace hydra::data::tenhou
