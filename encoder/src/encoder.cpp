// The channel writers, one per group. Each writes every float of its channels, so rewriting a
// group never depends on what the buffer held before. The exact definition of every channel is
// next to the code that writes it (and in docs/ENCODER.md).

#include <algorithm>
#include <array>
#include <cmath>
#include <bit>
#include <cstring>

#include "hydra/common/index.hpp"
#include "hydra/encoder/encoder.hpp"
#include "hydra/game/kyoku.hpp"
#include "hydra/game/shanten.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace hydra::encoder {
namespace {

using game::Meld;
using game::MeldKind;
using game::PlayerView;
using game::Seat;
using game::TileCounts;


// exp(-0.2 * age) for every age a river can reach (a river holds at most 48 discards).
const std::array<float, 64> kDecay = [] {
  std::array<float, 64> d{};
  for (std::size_t a = 0; a < d.size(); ++a) d[a] = static_cast<float>(std::exp(-0.2 * static_cast<double>(a)));
  return d;
}();

float* plane(float* obs, int channel) { return obs + channel * kTiles; }

// Explicit vector stores: GCC turns both std::fill_n and a copy from a zero array into memset,
// expanded as `rep stos`, whose start-up cost dominates a 136-byte plane.
void fill(float* p, float x) {
#if defined(__SSE2__)
  // Straight-line: as a loop, GCC recognises the zero case as a memset again.
  const __m128 v = _mm_set1_ps(x);
  _mm_storeu_ps(p, v);
  _mm_storeu_ps(p + 4, v);
  _mm_storeu_ps(p + 8, v);
  _mm_storeu_ps(p + 12, v);
  _mm_storeu_ps(p + 16, v);
  _mm_storeu_ps(p + 20, v);
  _mm_storeu_ps(p + 24, v);
  _mm_storeu_ps(p + 28, v);
  _mm_storel_pi(reinterpret_cast<__m64*>(p + 32), v);
#else
  for (int t = 0; t < kTiles; ++t) p[t] = x;
#endif
}
void zero(float* p, int planes = 1) {
  for (int k = 0; k < planes; ++k) fill(p + k * kTiles, 0.0F);
}

// One byte of a tile mask as 8 floats: a binary plane is four 32-byte copies and two stores.
struct ByteFloats {
  std::array<std::array<float, 8>, 256> v{};
};
const ByteFloats kByteFloats = [] {
  ByteFloats b;
  for (std::size_t x = 0; x < 256; ++x)
    for (std::size_t k = 0; k < 8; ++k) b.v[x][k] = static_cast<float>((x >> k) & 1U);
  return b;
}();

// Written out: GCC keeps the loop over the bytes (variable shifts) and converts the last two bits
// through the integer unit, twice the instructions of these five copies.
void from_mask(float* p, std::uint64_t m) {
  const auto row = [&](int byte) { return kByteFloats.v[(m >> (8 * byte)) & 0xFFU].data(); };
  std::memcpy(p, row(0), 8 * sizeof(float));
  std::memcpy(p + 8, row(1), 8 * sizeof(float));
  std::memcpy(p + 16, row(2), 8 * sizeof(float));
  std::memcpy(p + 24, row(3), 8 * sizeof(float));
  std::memcpy(p + 32, kByteFloats.v[(m >> 32) & 3U].data(), 2 * sizeof(float));
}

// Per-type tests over 34 bytes as 34-bit masks (bit t = type t): with SSE2 three loads and a
// movemask each instead of a branchy loop.
constexpr std::uint64_t kAllTypes = (std::uint64_t{1} << kTiles) - 1;

#if defined(__SSE2__)
struct Lanes {
  __m128i x0, x1, x2;  // types 0-15, 16-31, 32-33 (lanes 2-15 of x2 zero)
  explicit Lanes(const std::uint8_t* c)
      : x0(_mm_loadu_si128(reinterpret_cast<const __m128i*>(c))),
        x1(_mm_loadu_si128(reinterpret_cast<const __m128i*>(c + 16))),
        x2(_mm_cvtsi32_si128(c[32] | c[33] << 8)) {}
};

std::uint64_t zero_bits(__m128i x) {
  return static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_setzero_si128())));
}

// Bit t set where c[t] >= k (unsigned counts, k >= 1).
std::uint64_t at_least(const Lanes& l, int k) {
  const __m128i d = _mm_set1_epi8(static_cast<char>(k - 1));
  const std::uint64_t zero = zero_bits(_mm_subs_epu8(l.x0, d)) | zero_bits(_mm_subs_epu8(l.x1, d)) << 16 |
                             zero_bits(_mm_subs_epu8(l.x2, d)) << 32;
  return ~zero & kAllTypes;
}

// Bit t set where v[t] < limit (signed bytes).
std::uint64_t below(const std::int8_t* v, int limit) {
  const Lanes l(reinterpret_cast<const std::uint8_t*>(v));
  const __m128i lim = _mm_set1_epi8(static_cast<char>(limit));
  const auto bits = [&](__m128i x) { return static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(_mm_cmplt_epi8(x, lim)))); };
  return (bits(l.x0) | bits(l.x1) << 16 | (bits(l.x2) & 3U) << 32);
}

int total(const TileCounts& c) {
  const Lanes l(c.data());
  const __m128i z = _mm_setzero_si128();
  const __m128i s = _mm_add_epi64(_mm_add_epi64(_mm_sad_epu8(l.x0, z), _mm_sad_epu8(l.x1, z)), _mm_sad_epu8(l.x2, z));
  return _mm_cvtsi128_si32(s) + _mm_extract_epi16(s, 4);
}
#else
struct Lanes {
  const std::uint8_t* c;
  explicit Lanes(const std::uint8_t* p) : c(p) {}
};

std::uint64_t at_least(const Lanes& l, int k) {
  std::uint64_t m = 0;
  for (int t = 0; t < kTiles; ++t) m |= static_cast<std::uint64_t>(l.c[t] >= k) << t;
  return m;
}

std::uint64_t below(const std::int8_t* v, int limit) {
  std::uint64_t m = 0;
  for (int t = 0; t < kTiles; ++t) m |= static_cast<std::uint64_t>(v[t] < limit) << t;
  return m;
}

int total(const TileCounts& c) {
  int n = 0;
  for (std::uint8_t x : c) n += x;
  return n;
}
#endif

// Masks over the 27 suited types by 0-based number n (0-8) within the suit.
constexpr std::uint64_t numbers(int lo, int hi) {
  std::uint64_t m = 0;
  for (int s = 0; s < 3; ++s)
    for (int n = lo; n <= hi; ++n) m |= std::uint64_t{1} << (s * 9 + n);
  return m;
}
constexpr std::uint64_t kSuited = numbers(0, 8);
constexpr std::uint64_t kUpSide = numbers(0, 5);    // n + 3 exists; a (n+1, n+2) shape waits on n
constexpr std::uint64_t kDownSide = numbers(3, 8);  // n - 3 exists; a (n-2, n-1) shape waits on n
constexpr std::uint64_t kTwoSided = kUpSide & kDownSide;

template <class F>
void for_bits(std::uint64_t m, F&& f) {
  for (; m != 0; m &= m - 1) f(std::countr_zero(m));
}

// Planes k = 0 .. levels - 1: count > k. Once a level is empty every higher one is too, and
// zero planes are plain copies.
void thermometer(float* p, const TileCounts& c, int levels) {
  const Lanes l(c.data());
  for (int k = 0; k < levels; ++k) {
    const std::uint64_t m = at_least(l, k + 1);
    if (m == 0) {
      for (; k < levels; ++k) zero(p + k * kTiles);
      return;
    }
    from_mask(p + k * kTiles, m);
  }
}

// Four planes: count >= 1, >= 2, >= 3, == 4 (the last is >= 4: no kind has five copies).
void thermometer4(float* p, const TileCounts& c) { thermometer(p, c, 4); }

TileCounts meld_counts(const PlayerView& v, Seat s) {
  TileCounts c{};
  for (const Meld& m : v.melds(s)) m.add_to(c);
  return c;
}

// Channels 0-3: own closed tiles (the drawn tile included) as a count thermometer.
// Channels 40-42: the red 5m / 5p / 5s is among the own closed tiles or own melds (whole plane).
void write_hand(const PlayerView& v, float* obs) {
  thermometer4(plane(obs, ch::kHand), v.hand().closed);
  unsigned red = v.hand().closed_red;
  for (const Meld& m : v.melds(v.seat()))
    for (int k = 0; k < m.size(); ++k)
      if (m.tile(k).is_red()) red |= game::red_bit(m.tile(k).type());
  for (int s = 0; s < 3; ++s) fill(plane(obs, ch::kRed + s), static_cast<float>((red >> s) & 1U));
}

// Channels 4-7: tiles in the own declared melds (chi, pon, kans; an ankan too, since its tiles
// left the closed hand), same thermometer.
void write_own_melds(const PlayerView& v, float* obs) { thermometer4(plane(obs, ch::kOwnMelds), meld_counts(v, v.seat())); }

// Channel 8: the tile of the own last draw, one-hot, while it is the turn that draw opened
// (cleared by the own discard, call or kan).
void write_drawn(const Book& b, float* obs) {
  float* p = plane(obs, ch::kDrawn);
  fill(p, 0.0F);
  if (!b.drawn().is_unknown()) p[b.drawn().type().index()] = 1.0F;
}

// Channels 9, 10 (only while holding 3n+2 closed tiles, i.e. after a draw or a chi/pon; else 0):
//   9: discarding this type leaves the best shanten reachable now (DiscardShanten::efficient);
//  10: discarding it leaves a shanten below the shanten before the last draw or call.
// Channels 55-58: own best shanten over normal, chiitoitsu and kokushi, one-hot {0, 1, 2, >= 3};
//   with 3n+2 tiles the best shanten after a discard (a complete hand counts as 0). All zero
//   before the first deal.
void write_shanten(const PlayerView& v, const Book& b, float* obs) {
  const TileCounts& c = v.hand().closed;
  const int n = total(c);
  float* eff = plane(obs, ch::kEfficient);
  float* prog = plane(obs, ch::kProgress);
  int best = -2;
  if (n % 3 == 2) {
    // The masks of DiscardShanten::efficient() and lowering(), read off `after` in one pass each.
    const game::DiscardShanten ds = game::discard_shanten(c);
    from_mask(eff, below(ds.after.data(), ds.best + 1));
    from_mask(prog, below(ds.after.data(), b.shanten_before()));
    best = ds.best;
  } else {
    fill(eff, 0.0F);
    fill(prog, 0.0F);
    if (n % 3 == 1) best = b.shanten13();  // the book computed it when the hand last changed
  }
  for (int k = 0; k < 4; ++k) fill(plane(obs, ch::kShanten + k), 0.0F);
  if (best > -2) fill(plane(obs, ch::kShanten + std::clamp(best, 0, 3)), 1.0F);
}

// Channels 11-22, for each player p (0 self, 1 shimocha, 2 toimen, 3 kamicha) at 11 + 3p:
//   +0 the type is in p's river (called-away discards included);
//   +1 p discarded the type from the hand (tedashi) at least once;
//   +2 exp(-0.2 * age) of p's latest discard of the type, age = p's discards since it (0 for
//      p's last discard); 0 when never discarded.
void write_discards(const Book& b, float* obs, unsigned seats) {
  for (int rel = 0; rel < 4; ++rel) {
    if (!((seats >> b.me().next(rel).index()) & 1U)) continue;
    const SeatBook& s = b.seat(b.me().next(rel));
    float* p = plane(obs, ch::kRiver + 3 * rel);
    from_mask(p, s.discarded);
    from_mask(p + kTiles, s.tedashi);
    float* rec = p + 2 * kTiles;
    fill(rec, 0.0F);
    for_bits(s.discarded, [&](int t) { rec[t] = kDecay[ix(s.river - 1 - s.last[ix(t)])]; });
  }
}

// Channels 23-34, for each player p at 23 + 3p: copies of the type in p's chi melds, pon melds
// and kan melds (daiminkan, kakan, ankan), each divided by 4.
void write_melds(const PlayerView& v, const Book& b, float* obs) {
  zero(plane(obs, ch::kMelds), 12);
  for (int rel = 0; rel < 4; ++rel)
    for (const Meld& m : v.melds(b.me().next(rel))) {
      const int k = m.kind() == MeldKind::chi ? 0 : m.kind() == MeldKind::pon ? 1 : 2;
      float* p = plane(obs, ch::kMelds + 3 * rel + k);
      for (int i = 0; i < m.size(); ++i) p[m.tile(i).type().index()] += 0.25F;  // exact in binary
    }
}

// Channels 35-39: dora indicators revealed so far, counted per type, thermometer >= 1 .. >= 5
// (>= 5 cannot happen with four copies of a kind; the channel is kept for the layout).
void write_dora(const PlayerView& v, float* obs) {
  TileCounts c{};
  for (game::Pai p : v.dora_markers()) ++c[ix(p.type().index())];
  thermometer(plane(obs, ch::kDora), c, 5);
}

// Whole planes, per player p in relative order:
//   43 + p: p declared riichi (from its reach event on);
//   47 + p: p's score / 100,000;  51 + p: (own score - p's score) / 30,000 (0 for p = self);
//   59: round index / 8 (E1 = 0 .. S4 = 7; West and later rounds clipped to 1);
//   60: honba / 10;  61: riichi sticks on the table / 10.
void write_meta(const PlayerView& v, float* obs) {
  const Seat me = v.seat();
  const double own = v.scores()[ix(me.index())];
  for (int rel = 0; rel < 4; ++rel) {
    const Seat s = me.next(rel);
    const double score = v.scores()[ix(s.index())];
    fill(plane(obs, ch::kRiichi + rel), v.riichi_declared(s) ? 1.0F : 0.0F);
    fill(plane(obs, ch::kScore + rel), static_cast<float>(score / 100000.0));
    fill(plane(obs, ch::kScoreDiff + rel), static_cast<float>((own - score) / 30000.0));
  }
  const int round = game::round_index(v.bakaze(), v.kyoku());
  fill(plane(obs, ch::kRound), static_cast<float>(std::min(round, 8)) / 8.0F);
  fill(plane(obs, ch::kHonba), static_cast<float>(v.honba()) / 10.0F);
  fill(plane(obs, ch::kSticks), static_cast<float>(v.kyotaku()) / 10.0F);
}

// Channel 77 for one opponent (definition below): matagi[t] = max of the weights of the suited
// tedashi types within 2 of t in its suit, 0 for t in G. The weight falls with the age, so the max
// is the weight of the latest of those tedashi: with SSE2 each suit's river indices (+1, 0 = none)
// sit in one byte register, four byte shifts and maxes give every number's latest neighbour at
// once (zeros shift in at the suit's ends), and only the nonzero types outside G look up a weight.
// This keeps the row in registers: scalar stores read back as vectors stall store forwarding.
void write_matagi(float* matagi, const SeatBook& s, std::uint64_t g) {
  fill(matagi, 0.0F);
#if defined(__SSE2__)
  const __m128i keep = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0);
  for (int suit = 0; suit < 3; ++suit) {
    // last_tedashi is -1 exactly for the types never discarded from the hand.
    const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.last_tedashi.data() + 9 * suit));
    const __m128i v = _mm_and_si128(_mm_add_epi8(raw, _mm_set1_epi8(1)), keep);
    const __m128i near = _mm_max_epu8(_mm_srli_si128(v, 1), _mm_slli_si128(v, 1));
    const __m128i latest = _mm_max_epu8(near, _mm_max_epu8(_mm_srli_si128(v, 2), _mm_slli_si128(v, 2)));
    alignas(16) std::array<std::uint8_t, 16> m;
    _mm_store_si128(reinterpret_cast<__m128i*>(m.data()), latest);
    const auto none = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(latest, _mm_setzero_si128())));
    const std::uint64_t open = ~(none | (g >> (9 * suit))) & 0x1FFU;
    for_bits(open, [&](int n) { matagi[9 * suit + n] = kDecay[ix(s.river - m[ix(n)])]; });
  }
#else
  for_bits(s.tedashi & kSuited, [&](int x) {
    const float w = kDecay[ix(s.river - 1 - s.last_tedashi[ix(x)])];
    const int n = x % 9;
    for (int d = -2; d <= 2; ++d) {
      const int t = x + d;
      if (d == 0 || n + d < 0 || n + d > 8 || ((g >> t) & 1U)) continue;
      matagi[t] = std::max(matagi[t], w);
    }
  });
#endif
}

// Channel 82's estimate for an opponent not in riichi with k < 4 open melds and d discards
// (definition below), for every (k, min(d, 18)): the same float expression, looked up.
const std::array<std::array<float, 19>, 4> kTenpaiPrior = [] {
  std::array<std::array<float, 19>, 4> v{};
  for (std::size_t k = 0; k < 4; ++k)
    for (std::size_t d = 0; d <= 18; ++d)
      v[k][d] = std::min(1.0F, (0.25F + 0.25F * static_cast<float>(k)) * static_cast<float>(d) / 18.0F);
  return v;
}();

// The safety channels, per opponent o (1 shimocha, 2 toimen, 3 kamicha; plane base + o - 1).
// G(o) = the types o cannot ron on: every type in o's river (discard furiten) plus every type
// passed since o's riichi declaration tile (riichi furiten). On suited tiles n = 1..9:
//   62: genbutsu, G(o);
//   65: o discarded the type from the hand (tedashi; its tsumogiri alone does not count);
//   68: the type was passed after o's riichi declaration tile (0 while o is not in riichi);
//   71: suji, the share of the ryanmen waits on the tile that G(o) rules out: the partners are
//       n - 3 (for n >= 4) and n + 3 (for n <= 6); value = partners in G(o) / partners, so 1 for
//       a full suji, 0.5 for one side of 4-6; honours 0;
//   74: half-suji, n in 4..6 with exactly one of its two partners in G(o);
//   77: matagi-suji danger, for a suited type not in G(o): max over o's tedashi types X of the same
//       suit with |n - X| in {1, 2} (the waits of the ryanmen shapes that held X) of
//       exp(-0.2 * age), age = o's discards since its latest tedashi of X; so the tiles around a
//       fresh tedashi (the riichi tile above all) are near 1 and older ones fade;
//   82: tenpai signal, whole plane: 1 once o declared riichi, else with k = o's open melds
//       (chi, pon, daiminkan) and d = o's discards, 1 for k = 4 (a single tile left) and
//       otherwise min(1, (0.25 + 0.25 k) * min(d, 18) / 18): a closed hand drifts up to 0.25 by
//       the 18th discard, each open meld adds 0.25.
// Global, from the observer's visible counts V (own hand, rivers, every meld, dora indicators):
// a ryanmen wait on n comes from the shape (n+1, n+2) when n <= 6 and from (n-2, n-1) when
// n >= 4; a side is blocked by its neighbour tile n+1 resp. n-1.
//   80: kabe (no-chance): every side of n is blocked by a neighbour with V = 4;
//   81: one-chance: every side's neighbour has V >= 3, and not kabe. Honours 0 in both.
void write_safety(const Book& b, float* obs, unsigned seats) {
  for (int o = 1; o < 4; ++o) {
    if (!((seats >> b.me().next(o).index()) & 1U)) continue;
    const SeatBook& s = b.seat(b.me().next(o));
    const std::uint64_t g = s.discarded | s.passed;
    const int i = o - 1;
    from_mask(plane(obs, ch::kGenbutsu + i), g);
    from_mask(plane(obs, ch::kTedashiSafe + i), s.tedashi);
    from_mask(plane(obs, ch::kRiichiSafe + i), s.passed);
    // Suji: a side is safe when its partner n -+ 3 is in G; a one-sided tile is full suji with
    // its one side safe, a two-sided one with both (half-suji with exactly one).
    const std::uint64_t up_safe = (g >> 3) & kUpSide, down_safe = (g << 3) & kDownSide;
    const std::uint64_t full = ((up_safe | down_safe) & ~kTwoSided) | (up_safe & down_safe);
    const std::uint64_t half = kTwoSided & (up_safe ^ down_safe);
    float* suji = plane(obs, ch::kSuji + i);
    from_mask(suji, full);
    for_bits(half, [&](int t) { suji[t] = 0.5F; });
    from_mask(plane(obs, ch::kHalfSuji + i), half);
    // Matagi: spread each suited tedashi's recency weight to its neighbours within 2 in its suit.
    write_matagi(plane(obs, ch::kMatagi + i), s, g);
    const float tenpai = !s.riichi && s.open_melds < 4 ? kTenpaiPrior[s.open_melds][ix(std::min<int>(s.river, 18))] : 1.0F;
    fill(plane(obs, ch::kTenpai + i), tenpai);
  }
  // Kabe / one-chance: a side is blocked when its neighbour (n+1 up, n-1 down) is fully (4) or
  // all but one (3) visible; a tile qualifies when every side it has is blocked.
  const Lanes vis(b.visible().data());
  const std::uint64_t four = at_least(vis, 4) & kSuited, three_plus = at_least(vis, 3) & kSuited;
  const auto blocked = [](std::uint64_t m) {
    return kSuited & (~kUpSide | (m >> 1)) & (~kDownSide | (m << 1));
  };
  const std::uint64_t kabe = blocked(four);
  from_mask(plane(obs, ch::kKabe), kabe);
  from_mask(plane(obs, ch::kOneChance), blocked(three_plus) & ~kabe);
}

}  // namespace

void write_group(Group g, const PlayerView& view, const Book& book, float* obs, unsigned seats) {
  switch (g) {
    case Group::hand: write_hand(view, obs); return;
    case Group::open_melds: write_own_melds(view, obs); return;
    case Group::drawn: write_drawn(book, obs); return;
    case Group::shanten: write_shanten(view, book, obs); return;
    case Group::discards: write_discards(book, obs, seats); return;
    case Group::melds: write_melds(view, book, obs); return;
    case Group::dora: write_dora(view, obs); return;
    case Group::meta: write_meta(view, obs); return;
    case Group::safety: write_safety(book, obs, seats); return;
  }
}

void encode_full(const PlayerView& view, const Book& book, float* obs) {
  for (int g = 0; g < kNumGroups; ++g) write_group(static_cast<Group>(g), view, book, obs);
}

const Obs& Encoder::encode(const PlayerView& view) {
  if (dirty_.empty()) return planes_;
  for (int g = 0; g < kNumGroups; ++g)
    if (dirty_.test(static_cast<Group>(g)))
      write_group(static_cast<Group>(g), view, book_, planes_.v.data(), dirty_.seats());
  dirty_ = GroupMask();
  return planes_;
}

void Encoder::encode_into(const PlayerView& view, float* dst) {
  std::memcpy(dst, encode(view).v.data(), sizeof(float) * kObsSize);
}

}  // namespace hydra::encoder
