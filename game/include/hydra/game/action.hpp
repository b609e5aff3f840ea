#pragma once

// The 46-action space (docs/ENGINE.md, Mortal-compatible) and its legal mask.
//
//   0-33   discard a tile type (in the kan-select decision: the kan's tile type)
//   34-36  discard the red 5m / 5p / 5s
//   37     riichi (a second decision then picks among the legal riichi discards)
//   38-40  chi with the called tile as the lowest / middle / highest tile of the run
//   41     pon
//   42     kan: ankan, daiminkan or kakan (several candidates: a second kan-select decision)
//   43     agari: tsumo or ron by context
//   44     ryuukyoku (kyuushu kyuuhai)
//   45     pass

#include <bit>
#include <cstdint>
#include <string>

#include "hydra/game/tile.hpp"

namespace hydra::game {

inline constexpr int kNumActions = 46;

class Action {
 public:
  static constexpr int kRedDiscard = 34, kRiichi = 37, kChiLow = 38, kChiMid = 39, kChiHigh = 40,
                       kPon = 41, kKan = 42, kAgari = 43, kRyukyoku = 44, kPass = 45;

  constexpr Action() = default;
  constexpr explicit Action(int v) : v_(static_cast<std::uint8_t>(v)) {}
  // The discard of one tile as the action space names it: a red five has its own index.
  static constexpr Action discard(Pai p) {
    return Action(p.is_red() ? kRedDiscard + p.type().index() / 9 : p.type().index());
  }
  static constexpr Action kan_select(TileType t) { return Action(t.index()); }

  constexpr int index() const { return v_; }
  constexpr bool is_discard() const { return v_ < kRiichi; }
  constexpr bool is_chi() const { return v_ >= kChiLow && v_ <= kChiHigh; }
  // The tile a discard action names (the red copy for 34-36).
  constexpr Pai discard_pai() const {
    return v_ < kRedDiscard ? Pai(TileType(v_)) : Pai(TileType((v_ - kRedDiscard) * 9 + 4), true);
  }
  friend constexpr bool operator==(Action, Action) = default;

 private:
  std::uint8_t v_ = kPass;
};

std::string to_string(Action a);  // "discard 5mr", "chi-low", "pass", ...

// A set of actions as 46 bits; the bit of an action is set when it is legal.
class ActionMask {
 public:
  constexpr ActionMask() = default;
  constexpr explicit ActionMask(std::uint64_t bits) : bits_(bits) {}
  constexpr void set(Action a) { bits_ |= std::uint64_t{1} << a.index(); }
  constexpr void reset(Action a) { bits_ &= ~(std::uint64_t{1} << a.index()); }
  constexpr bool test(Action a) const { return (bits_ >> a.index()) & 1U; }
  constexpr int count() const { return std::popcount(bits_); }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr std::uint64_t bits() const { return bits_; }
  // The n-th set action (0-based, n < count()), for uniform sampling without a list.
  constexpr Action nth(int n) const {
    std::uint64_t b = bits_;
    for (int i = 0; i < n; ++i) b &= b - 1;
    return Action(std::countr_zero(b));
  }
  friend constexpr bool operator==(ActionMask, ActionMask) = default;

 private:
  std::uint64_t bits_ = 0;
};

std::string to_string(ActionMask m);  // the set actions, comma separated

}  // namespace hydra::game
