#include "hydra/game/rng.hpp"

#include "hydra/common/error.hpp"

namespace hydra::game {

Xoshiro256ss::Xoshiro256ss(const Digest& key) {
  for (std::size_t w = 0; w < 4; ++w) s_[w] = u64(key, w);
  if ((s_[0] | s_[1] | s_[2] | s_[3]) == 0) s_[0] = 0x9e3779b97f4a7c15ULL;  // golden-ratio word
}

Xoshiro256ss Xoshiro256ss::from_state(const State& s) {
  HYDRA_CHECK((s[0] | s[1] | s[2] | s[3]) != 0, "xoshiro256**: the all-zero state is invalid");
  Xoshiro256ss r;
  r.s_ = s;
  return r;
}

std::uint32_t Xoshiro256ss::below(std::uint32_t bound) {
  HYDRA_CHECK(bound >= 1, "Xoshiro256ss::below: bound must be >= 1");
  // m = x * bound for a uniform 32-bit x: its high word is the candidate. The low word falls
  // below 2^32 mod bound for exactly the x that make some results one count too frequent; those
  // are rejected, so every result has the same number of accepted x.
  std::uint64_t m = (next() >> 32) * std::uint64_t{bound};
  auto low = static_cast<std::uint32_t>(m);
  if (low < bound) {
    const std::uint32_t threshold = static_cast<std::uint32_t>(-bound) % bound;  // 2^32 mod bound
    while (low < threshold) {
      m = (next() >> 32) * std::uint64_t{bound};
      low = static_cast<std::uint32_t>(m);
    }
  }
  return static_cast<std::uint32_t>(m >> 32);
}

}  // namespace hydra::game
