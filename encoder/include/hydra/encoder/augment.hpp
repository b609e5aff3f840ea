#pragma once

// Augmentation. Mahjong is symmetric under any permutation of the three suits (honours fixed)
// and under rotating the seats, so one game yields 6 x 4 training views:
//   - SuitPerm: the 6 permutations of m/p/s, applied consistently to events (every tile field;
//     red fives follow their suit), to observations (tile columns permuted; the three red-five
//     channels 40-42 are per suit and swap with it), to legal masks and to action indices
//     (discards 0-33 by tile type, red discards 34-36 by suit; the other actions are
//     suit-blind). SuitPerm::nth(0) is the identity and leaves everything byte-identical.
//   - Seat rotation: rotate_seats(e, r) moves every seat field and per-seat array by r places;
//     seat s + r's encoding of the rotated stream equals seat s's encoding of the original.
// Permutation invariants (tested over real and random games): the encoding of a permuted
// stream equals the permuted encoding of the stream, and a permuted action is legal in the
// permuted stream exactly when the action is legal in the original.

#include <array>
#include <cstdint>

#include "hydra/encoder/layout.hpp"
#include "hydra/game/action.hpp"
#include "hydra/game/event.hpp"
#include "hydra/common/index.hpp"

namespace hydra::encoder {

inline constexpr int kNumSuitPerms = 6;

class SuitPerm {
 public:
  constexpr SuitPerm() = default;  // identity
  // The n-th permutation (0-5) in lexicographic order of (image of m, of p, of s): 0 = mps
  // (identity), 1 = msp, 2 = pms, 3 = psm, 4 = smp, 5 = spm.
  static constexpr SuitPerm nth(int n) {
    constexpr std::array<std::array<std::uint8_t, 3>, kNumSuitPerms> k = {{
        {0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
    SuitPerm p;
    p.to_ = k[ix(n)];
    p.n_ = static_cast<std::uint8_t>(n);
    return p;
  }
  constexpr int index() const { return n_; }
  constexpr bool identity() const { return n_ == 0; }
  constexpr int suit(int s) const { return to_[ix(s)]; }  // s in 0..2
  constexpr SuitPerm inverse() const {
    SuitPerm inv;
    for (int s = 0; s < 3; ++s) inv.to_[static_cast<std::size_t>(to_[ix(s)])] = static_cast<std::uint8_t>(s);
    for (int n = 0; n < kNumSuitPerms; ++n)
      if (nth(n).to_ == inv.to_) inv.n_ = static_cast<std::uint8_t>(n);
    return inv;
  }

  constexpr game::TileType operator()(game::TileType t) const {
    const int i = t.index();
    return i >= 27 ? t : game::TileType(suit(i / 9) * 9 + i % 9);
  }
  constexpr game::Pai operator()(game::Pai p) const {
    return p.is_unknown() ? p : game::Pai((*this)(p.type()), p.is_red());
  }
  constexpr game::Action operator()(game::Action a) const {
    const int i = a.index();
    if (i < kTiles) return game::Action((*this)(game::TileType(i)).index());
    if (i < game::Action::kRiichi) return game::Action(game::Action::kRedDiscard + suit(i - game::Action::kRedDiscard));
    return a;
  }
  game::ActionMask operator()(game::ActionMask m) const;
  game::Event operator()(const game::Event& e) const;
  // out = the observation `in` under this permutation (in and out must not overlap).
  void apply(const float* in, float* out) const;

 private:
  std::array<std::uint8_t, 3> to_{0, 1, 2};
  std::uint8_t n_ = 0;
};

// Every seat field and per-seat array of `e` moved r places on (seat s becomes s + r mod 4).
game::Event rotate_seats(const game::Event& e, int r);

}  // namespace hydra::encoder
