#pragma once

// Declared melds: chi, pon, daiminkan, kakan (a pon upgraded to a kan) and ankan. A meld keeps
// its physical faces (red fives included, so no red dora is ever lost) and, for called melds, the
// called tile and the seat it came from, as seen by the caller.
//
// Text form (the kobalab notation used by the scoring data, also what `hydra hand --meld` takes):
// suit letter, digits (0 = red five), and after the called tile a mark for the seat it came
// from: '-' kamicha (left), '=' toimen (across), '+' shimocha (right).
//   chi  "m3-45", "p40-6"      pon  "z111=", "m550+"      daiminkan "s5555-"
//   kakan "m555=5" (pon "m555=" plus the added tile)       ankan "p4444" (no mark)

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "hydra/game/tile.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {

enum class MeldKind : std::uint8_t { chi, pon, daiminkan, kakan, ankan };

// A seat relative to the one that acts: self for ankan, else where the called tile came from.
enum class From : std::uint8_t { self = 0, shimocha = 1, toimen = 2, kamicha = 3 };

class Meld {
 public:
  constexpr Meld() = default;

  // Builders check the shape and throw hydra::Error for an impossible meld (named in the text).
  static Meld chi(Pai called, Pai own_a, Pai own_b);  // always from kamicha
  static Meld pon(Pai called, Pai own_a, Pai own_b, From from);
  static Meld daiminkan(Pai called, const std::array<Pai, 3>& own, From from);
  static Meld kakan(const Meld& pon, Pai added);
  static Meld ankan(const std::array<Pai, 4>& tiles);

  constexpr MeldKind kind() const { return kind_; }
  constexpr From from() const { return from_; }
  constexpr Pai called() const { return called_; }  // meaningless for ankan
  constexpr TileType first() const { return tiles_[0].type(); }  // lowest tile type
  constexpr int size() const { return is_kan() ? 4 : 3; }
  constexpr bool is_kan() const { return kind_ >= MeldKind::daiminkan; }
  constexpr bool is_open() const { return kind_ != MeldKind::ankan; }
  constexpr bool is_run() const { return kind_ == MeldKind::chi; }
  constexpr Pai tile(int i) const { return tiles_[ix(i)]; }
  int red_count() const;
  void add_to(TileCounts& counts) const;  // adds its faces by type

  friend constexpr bool operator==(const Meld&, const Meld&) = default;

 private:
  std::array<Pai, 4> tiles_{};  // sorted by type; kan: 4 faces, else 3 (4th unused)
  Pai called_{};
  MeldKind kind_ = MeldKind::chi;
  From from_ = From::self;
};

// Parses one meld in the notation above; throws hydra::Error naming the text.
Meld parse_meld(std::string_view text);
std::string to_string(const Meld& meld);

}  // namespace hydra::game
