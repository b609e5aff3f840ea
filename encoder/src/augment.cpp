// Suit permutations and seat rotation of events, observations, masks and actions.

#include "hydra/encoder/augment.hpp"

#include <bit>
#include "hydra/common/index.hpp"

namespace hydra::encoder {
namespace {

using game::Event;
using game::Seat;

template <int N>
void permute_all(game::FixedVec<game::Pai, N>& v, const SuitPerm& p) {
  for (game::Pai& x : v) x = p(x);
}

Seat rotate(Seat s, int r) { return s.valid() ? s.next(r) : s; }

template <class T>
std::array<T, game::kNumSeats> rotate(const std::array<T, game::kNumSeats>& a, int r) {
  std::array<T, game::kNumSeats> out{};
  for (int s = 0; s < game::kNumSeats; ++s) out[static_cast<std::size_t>((s + r) % game::kNumSeats)] = a[ix(s)];
  return out;
}

}  // namespace

game::ActionMask SuitPerm::operator()(game::ActionMask m) const {
  game::ActionMask out;
  for (std::uint64_t b = m.bits(); b != 0; b &= b - 1) out.set((*this)(game::Action(std::countr_zero(b))));
  return out;
}

Event SuitPerm::operator()(const Event& e) const {
  Event out = e;
  out.pai = (*this)(e.pai);
  out.dora_marker = (*this)(e.dora_marker);
  permute_all(out.consumed, *this);
  for (game::Tehai& t : out.tehais) permute_all(t, *this);
  permute_all(out.hora_tehais, *this);
  permute_all(out.ura_markers, *this);
  return out;
}

void SuitPerm::apply(const float* in, float* out) const {
  std::array<int, kTiles> to{};
  for (int t = 0; t < kTiles; ++t) to[ix(t)] = (*this)(game::TileType(t)).index();
  for (int c = 0; c < kChannels; ++c) {
    // The red-five channels are per suit: the whole plane moves with its suit.
    const int dst = c >= ch::kRed && c < ch::kRed + 3 ? ch::kRed + suit(c - ch::kRed) : c;
    const float* src = in + c * kTiles;
    float* d = out + dst * kTiles;
    for (int t = 0; t < kTiles; ++t) d[to[ix(t)]] = src[t];
  }
}

Event rotate_seats(const Event& e, int r) {
  Event out = e;
  out.actor = rotate(e.actor, r);
  out.target = rotate(e.target, r);
  out.oya = rotate(e.oya, r);
  out.pao = rotate(e.pao, r);
  out.tehais = rotate(e.tehais, r);
  out.scores = rotate(e.scores, r);
  out.deltas = rotate(e.deltas, r);
  out.tenpais = rotate(e.tenpais, r);
  return out;
}

}  // namespace hydra::encoder
