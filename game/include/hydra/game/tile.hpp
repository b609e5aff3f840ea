#pragma once

// Tiles, in three small value types:
//   TileType  - one of the 34 kinds (0-8 1-9m, 9-17 1-9p, 18-26 1-9s, 27-33 E S W N P F C)
//   Tile      - one of the 136 physical tiles (Tenhou ids: type = id / 4; the red fives are the
//               copies 16 (5m), 52 (5p) and 88 (5s))
//   Pai       - what a log or an observer sees: a kind plus red flag, or unknown; the mjai
//               alphabet (34 kinds, 5mr 5pr 5sr, ?), one byte like Mortal's
// Notation: mjai names ("1m", "5pr", "E", "?") and the compact form "123m406p789s1234z"
// (0 = red five; z: 1-7 = E S W N P F C).

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hydra::game {

inline constexpr int kNumTileTypes = 34;
inline constexpr int kNumTiles = 136;

enum class Suit : std::uint8_t { man = 0, pin = 1, sou = 2, honor = 3 };

class TileType {
 public:
  constexpr TileType() = default;
  constexpr explicit TileType(int v) : v_(static_cast<std::uint8_t>(v)) {}
  static constexpr TileType suited(Suit s, int number) { return TileType(static_cast<int>(s) * 9 + number - 1); }

  constexpr int index() const { return v_; }
  constexpr Suit suit() const { return v_ >= 27 ? Suit::honor : static_cast<Suit>(v_ / 9); }
  constexpr int number() const { return v_ >= 27 ? v_ - 26 : v_ % 9 + 1; }  // honours: 1-7
  constexpr bool is_honor() const { return v_ >= 27; }
  constexpr bool is_terminal() const { return v_ < 27 && (v_ % 9 == 0 || v_ % 9 == 8); }
  constexpr bool is_yaochu() const { return is_honor() || is_terminal(); }
  constexpr bool is_wind() const { return v_ >= 27 && v_ <= 30; }
  constexpr bool is_dragon() const { return v_ >= 31; }
  constexpr bool is_five() const { return v_ < 27 && v_ % 9 == 4; }
  // The dora this tile indicates (9m -> 1m, N -> E, C -> P).
  constexpr TileType dora_next() const {
    if (v_ < 27) return TileType(v_ % 9 == 8 ? v_ - 8 : v_ + 1);
    if (v_ <= 30) return TileType(v_ == 30 ? 27 : v_ + 1);
    return TileType(v_ == 33 ? 31 : v_ + 1);
  }
  friend constexpr bool operator==(TileType, TileType) = default;
  friend constexpr auto operator<=>(TileType, TileType) = default;

 private:
  std::uint8_t v_ = 0;
};

class Tile {
 public:
  constexpr Tile() = default;
  constexpr explicit Tile(int id) : id_(static_cast<std::uint8_t>(id)) {}
  constexpr int id() const { return id_; }
  constexpr TileType type() const { return TileType(id_ / 4); }
  constexpr bool is_red() const { return id_ == 16 || id_ == 52 || id_ == 88; }
  friend constexpr bool operator==(Tile, Tile) = default;
  friend constexpr auto operator<=>(Tile, Tile) = default;

 private:
  std::uint8_t id_ = 0;
};

class Pai {
 public:
  static constexpr std::uint8_t kRed5m = 34, kRed5p = 35, kRed5s = 36, kUnknown = 37;

  constexpr Pai() = default;
  constexpr explicit Pai(TileType t, bool red = false)
      : v_(red && t.is_five() ? static_cast<std::uint8_t>(kRed5m + t.index() / 9) : static_cast<std::uint8_t>(t.index())) {}
  constexpr explicit Pai(Tile t) : Pai(t.type(), t.is_red()) {}
  static constexpr Pai unknown() { Pai p; p.v_ = kUnknown; return p; }
  static constexpr Pai from_index(int v) { Pai p; p.v_ = static_cast<std::uint8_t>(v); return p; }

  constexpr int index() const { return v_; }  // 0-33 kinds, 34-36 red fives, 37 unknown
  constexpr bool is_unknown() const { return v_ == kUnknown; }
  constexpr bool is_red() const { return v_ >= kRed5m && v_ <= kRed5s; }
  constexpr TileType type() const { return is_red() ? TileType((v_ - kRed5m) * 9 + 4) : TileType(v_); }
  friend constexpr bool operator==(Pai, Pai) = default;

 private:
  std::uint8_t v_ = kUnknown;
};

using TileCounts = std::array<std::uint8_t, kNumTileTypes>;

// mjai names. parse_* throw hydra::Error naming the text.
std::string_view mjai_name(Pai p);
Pai parse_mjai(std::string_view name);

// Compact notation "123m406p789s1234z" <-> tiles. Parsing keeps red fives (0) as Pai.
std::vector<Pai> parse_compact(std::string_view text);
std::string to_compact(const std::vector<Pai>& tiles);  // sorted m, p, s, z; red five as 0
TileCounts counts_of(const std::vector<Pai>& tiles);     // throws if a kind exceeds 4
TileCounts parse_counts(std::string_view compact);
std::string to_compact(const TileCounts& counts);

}  // namespace hydra::game
