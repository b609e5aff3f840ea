#pragma once

// A player's hand as scoring sees it: the closed tiles as 34 counts plus red-five bits, and up to
// four declared melds. A plain value (no allocation), cheap to copy.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hydra/game/meld.hpp"
#include "hydra/game/tile.hpp"

namespace hydra::game {

enum class Wind : std::uint8_t { east = 0, south = 1, west = 2, north = 3 };
inline constexpr TileType wind_tile(Wind w) { return TileType(27 + static_cast<int>(w)); }

// Red-five bits: one physical red copy per suit (bit 0 5m, bit 1 5p, bit 2 5s).
inline constexpr std::uint8_t red_bit(TileType five) { return static_cast<std::uint8_t>(1U << (five.index() / 9)); }

struct Hand {
  static constexpr int kMaxMelds = 4;

  TileCounts closed{};          // closed tiles (with the winning tile when scoring a win)
  std::uint8_t closed_red = 0;  // red fives among the closed tiles (red_bit)
  std::uint8_t num_melds = 0;
  std::array<Meld, kMaxMelds> melds{};

  int closed_size() const;
  bool is_menzen() const;  // no open meld (an ankan keeps the hand closed)
  int red_count() const;   // red fives in closed tiles and melds
  TileCounts all_tiles() const;  // closed plus meld faces (a kan counts 4)

  void add(Pai p);     // adds one closed tile (red bit kept)
  void remove(Pai p);  // removes one closed tile (the red copy only if p is red)
  void add_meld(const Meld& m);
};

// Builds a hand from compact closed tiles plus melds, checking everything a user can get wrong:
// at most four copies of a kind across closed tiles and melds, one red copy per suit, at most four
// melds, and closed tiles 3n+1 or 3n+2 with n + melds <= 4 (throws hydra::Error naming the text).
Hand make_hand(std::string_view closed_compact, const std::vector<Meld>& melds);
Hand make_hand(const std::vector<Pai>& closed, const std::vector<Meld>& melds, std::string_view what);
void validate_hand(const Hand& hand, std::string_view what);  // the same checks on a built hand

std::vector<Pai> closed_tiles(const Hand& hand);  // red fives as red Pai
std::string to_string(const Hand& hand);          // "123m406p ..." then " + " melds

}  // namespace hydra::game
