#pragma once

// The one PRNG of Hydra: xoshiro256** (Blackman and Vigna, 2018), written out here so every
// platform and standard library gives the same numbers. `std::shuffle`, the std distributions
// and `rand()` are implementation-defined and never used for anything that must replay.
//
// Seeding from a 32-byte key: state word i = bytes 8i..8i+7 read little-endian. A SHA-256 output
// is already uniformly mixed, so no further scrambling is needed; the all-zero state (the one
// state xoshiro cannot leave) is replaced by a fixed non-zero word (never seen in practice).

#include <array>
#include <cstdint>
#include <span>

#include "hydra/game/seed.hpp"

namespace hydra::game {

class Xoshiro256ss {
 public:
  using State = std::array<std::uint64_t, 4>;

  explicit Xoshiro256ss(const Digest& key);
  template <class Tag>
  explicit Xoshiro256ss(const Key<Tag>& key) : Xoshiro256ss(key.bytes()) {}
  // Resume from a saved state (checkpoints store state()).
  static Xoshiro256ss from_state(const State& s);

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, bound), bound >= 1, exactly unbiased: Lemire's multiply-shift on the top 32
  // bits of next(), rejecting the low products that would over-represent some values
  // (D. Lemire, "Fast random integer generation in an interval", 2019).
  std::uint32_t below(std::uint32_t bound);

  // Uniform double in [0, 1) from the top 53 bits.
  double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  const State& state() const { return s_; }

 private:
  Xoshiro256ss() = default;
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  State s_{};
};

// Fisher-Yates (Durstenfeld) shuffle: for i = n-1 down to 1, swap element i with element
// below(i + 1). The exact draw order is part of the wall format (docs/WALL.md).
template <class T>
void shuffle(std::span<T> items, Xoshiro256ss& rng) {
  for (std::size_t i = items.size(); i > 1; --i) {
    const std::size_t j = rng.below(static_cast<std::uint32_t>(i));
    T tmp = items[i - 1];
    items[i - 1] = items[j];
    items[j] = tmp;
  }
}

}  // namespace hydra::game
