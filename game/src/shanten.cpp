#include "hydra/game/shanten.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace hydra::game {
namespace {

// ---- Shape tables -------------------------------------------------------------------------
// A "shape" is one suit's counts (9 digits, or 7 for the honours), each 0..4, sum <= 14 (a closed
// hand never holds more). For each shape the table stores, for m = 0..4 melds and h = 0/1 pairs
// made inside that suit alone, the fewest tiles the suit is missing: min over target shapes with
// exactly m melds and h pairs (no count above 4) of sum_t max(0, target[t] - have[t]).
// Four such entries combine by min-plus convolution into the replacement number of the hand.

constexpr int kMaxSum = 14;
constexpr int kMaxMelds = 4;
// One shape's 10 values in 16 byte lanes: lane m = no pair, lane 8 + m = with the pair; the
// other six lanes hold kPad (never read as results). The layout fits one SSE2 register.
struct alignas(16) Entry {
  std::array<std::uint8_t, 16> v;
};
constexpr std::uint8_t kPad = 0x40;

constexpr int entry_index(int m, int h) { return h * 8 + m; }

// Shapes are ranked in lexicographic order of their digits; rank() adds, digit by digit, how
// many shapes with the same prefix and a smaller digit here come first. Building the table walks
// the shapes depth-first in the same order, so the leaf counter is the rank (checked at build).
// The hot path uses fast_rank(): the same number from two lookups, one for the first kHead digits
// (their partial rank and sum, by base-5 index) and one for the last 4 digits given that sum.
// A shape as its two base-5 indices: digit i weighs Ranker::place(i) in the head or tail index.
struct RankIndex {
  unsigned head, tail;
};

template <int Digits>
struct Ranker {
  static constexpr int kTail = 4;
  static constexpr int kHead = Digits - kTail;
  static constexpr int pow5(int k) { return k == 0 ? 1 : 5 * pow5(k - 1); }

  std::array<std::array<std::array<std::uint32_t, 5>, kMaxSum + 1>, Digits> offset{};
  std::uint32_t total = 0;
  std::array<std::uint32_t, pow5(kHead)> head{};                       // rank | sum << 24
  std::array<std::array<std::uint32_t, pow5(kTail)>, kMaxSum + 1> tail{};  // by head sum

  Ranker() {
    // ways[len][budget]: shapes of `len` digits (each 0..4) with sum <= budget.
    std::array<std::array<std::uint32_t, kMaxSum + 1>, Digits + 1> ways{};
    for (int b = 0; b <= kMaxSum; ++b) ways[0][ix(b)] = 1;
    for (int len = 1; len <= Digits; ++len)
      for (int b = 0; b <= kMaxSum; ++b)
        for (int v = 0; v <= std::min(4, b); ++v)
          ways[ix(len)][ix(b)] += ways[static_cast<std::size_t>(len - 1)][static_cast<std::size_t>(b - v)];
    for (int i = 0; i < Digits; ++i)
      for (int s = 0; s <= kMaxSum; ++s) {
        std::uint32_t acc = 0;
        for (int c = 0; c <= 4 && s + c <= kMaxSum; ++c) {
          offset[ix(i)][ix(s)][ix(c)] = acc;
          acc += ways[static_cast<std::size_t>(Digits - 1 - i)][static_cast<std::size_t>(kMaxSum - s - c)];
        }
      }
    total = ways[Digits][kMaxSum];
    // Split tables; combinations whose sum passes 14 never occur (checked before any lookup).
    for (int idx = 0; idx < pow5(kHead); ++idx) {
      std::uint32_t r = 0;
      int s = 0;
      for (int i = 0, v = idx; i < kHead; ++i, v /= 5) {
        if (s + v % 5 > kMaxSum) break;
        r += offset[ix(i)][ix(s)][static_cast<std::size_t>(v % 5)];
        s += v % 5;
      }
      head[ix(idx)] = r | static_cast<std::uint32_t>(std::min(s, kMaxSum)) << 24;
    }
    for (int s0 = 0; s0 <= kMaxSum; ++s0)
      for (int idx = 0; idx < pow5(kTail); ++idx) {
        std::uint32_t r = 0;
        int s = s0;
        for (int i = kHead, v = idx; i < Digits; ++i, v /= 5) {
          if (s + v % 5 > kMaxSum) break;
          r += offset[ix(i)][ix(s)][static_cast<std::size_t>(v % 5)];
          s += v % 5;
        }
        tail[ix(s0)][ix(idx)] = r;
      }
  }

  std::uint32_t rank(const std::uint8_t* c) const {
    std::uint32_t r = 0;
    unsigned s = 0;
    for (int i = 0; i < Digits; ++i) {
      r += offset[ix(i)][s][c[i]];
      s += c[i];
    }
    return r;
  }

  using Index = RankIndex;
  static Index index(const std::uint8_t* c) {
    Index x{0, 0};
    for (int i = kHead - 1; i >= 0; --i) x.head = x.head * 5 + c[i];
    for (int i = Digits - 1; i >= kHead; --i) x.tail = x.tail * 5 + c[i];
    return x;
  }
  static constexpr unsigned place(int i) { return static_cast<unsigned>(i < kHead ? pow5(i) : pow5(i - kHead)); }
  std::uint32_t rank_of(Index x) const {
    const std::uint32_t hv = head[x.head];
    return (hv & 0xFFFFFFU) + tail[hv >> 24][x.tail];
  }
  std::uint32_t fast_rank(const std::uint8_t* c) const { return rank_of(index(c)); }
};

// Depth-first build. DP state while scanning the digits left to right: melds m and pairs h placed
// so far, p1 = runs started at the previous digit, p2 = runs started two digits back (both still
// need a tile here). Cost so far is the tiles missing; 255 = unreachable.
constexpr int kStates = (kMaxMelds + 1) * 2 * 5 * 5;
using Dp = std::array<std::uint8_t, kStates>;
constexpr std::uint8_t kInf = 255;
constexpr int state(int m, int h, int p1, int p2) { return ((m * 2 + h) * 5 + p1) * 5 + p2; }

// One DP step: from a state, place `run` new runs, maybe a triplet, maybe the pair; `need` is how
// many tiles of this digit that asks for. Listed once so the walk only relaxes valid moves.
struct Move {
  std::uint8_t from, to, need;
};

std::vector<Move> moves(bool can_start_run, bool last_digit = false) {
  std::vector<Move> out;
  for (int m = 0; m <= kMaxMelds; ++m)
    for (int h = 0; h < 2; ++h)
      for (int p1 = 0; p1 <= 4; ++p1)
        for (int p2 = 0; p1 + p2 <= 4; ++p2)
          for (int run = 0; run <= (can_start_run ? 4 : 0); ++run)
            for (int trip = 0; trip < 2; ++trip)
              for (int pair = 0; pair <= 1 - h; ++pair) {
                const int need = p1 + p2 + run + 3 * trip + 2 * pair;
                const int melds = m + run + trip;
                if (need > 4 || melds > kMaxMelds) continue;
                if (last_digit && p1 != 0) continue;  // a run started one digit back cannot end
                out.push_back({static_cast<std::uint8_t>(state(m, h, p1, p2)),
                               static_cast<std::uint8_t>(state(melds, h + pair, run, p1)), static_cast<std::uint8_t>(need)});
              }
  return out;
}

template <int Digits>
class Builder {
 public:
  Builder(const Ranker<Digits>& ranker, bool runs)
      : ranker_(ranker), runs_(runs), with_runs_(moves(true)), without_runs_(moves(false)),
        last_(moves(false, true)), out_(ranker.total) {}

  std::vector<Entry> build() {
    Dp start;
    start.fill(kInf);
    start[state(0, 0, 0, 0)] = 0;
    walk(0, 0, start);
    HYDRA_CHECK(leaf_ == ranker_.total, "shanten table: shape count mismatch");
    return std::move(out_);
  }

 private:
  void walk(int digit, int sum, const Dp& dp) {
    if (digit == Digits - 1) return finish(sum, dp);
    // Runs start only on 1..7 of a suit (they must end inside it) and never among the honours.
    const std::vector<Move>& step = runs_ && digit + 2 < Digits ? with_runs_ : without_runs_;
    for (int c = 0; c <= 4 && sum + c <= kMaxSum; ++c) {
      shape_[ix(digit)] = static_cast<std::uint8_t>(c);
      Dp next;
      next.fill(kInf);
      for (const Move& mv : step) {
        const std::uint8_t cost = dp[mv.from];
        if (cost == kInf) continue;
        const int add = cost + std::max(0, mv.need - c);
        std::uint8_t& slot = next[mv.to];
        if (add < slot) slot = static_cast<std::uint8_t>(add);
      }
      walk(digit + 1, sum + c, next);
    }
  }

  // The last digit writes the leaves directly: only moves that close every run can end there.
  void finish(int sum, const Dp& dp) {
    for (int c = 0; c <= 4 && sum + c <= kMaxSum; ++c) {
      shape_[Digits - 1] = static_cast<std::uint8_t>(c);
      HYDRA_CHECK(ranker_.rank(shape_.data()) == leaf_ && ranker_.fast_rank(shape_.data()) == leaf_,
                  "shanten table: rank order mismatch");
      Dp end;
      end.fill(kInf);
      for (const Move& mv : last_) {
        const std::uint8_t cost = dp[mv.from];
        if (cost == kInf) continue;
        const int add = cost + std::max(0, mv.need - c);
        if (add < end[mv.to]) end[mv.to] = static_cast<std::uint8_t>(add);
      }
      Entry& e = out_[leaf_++];
      e.v.fill(kPad);
      for (int m = 0; m <= kMaxMelds; ++m)
        for (int h = 0; h < 2; ++h) e.v[static_cast<std::size_t>(entry_index(m, h))] = end[state(m, h, 0, 0)];
    }
  }

  const Ranker<Digits>& ranker_;
  bool runs_;
  std::vector<Move> with_runs_, without_runs_, last_;
  std::vector<Entry> out_;
  std::array<std::uint8_t, Digits> shape_{};
  std::uint32_t leaf_ = 0;
};

struct Tables {
  Ranker<9> suit_rank;
  Ranker<7> honor_rank;
  std::vector<Entry> suit;
  std::vector<Entry> honor;
  Tables() : suit(Builder<9>(suit_rank, true).build()), honor(Builder<7>(honor_rank, false).build()) {}
};

const Tables& tables() {
  static const Tables t;  // built once, thread-safe (C++11 magic static)
  return t;
}

// The closed total and which kinds are held at least once / twice (bit t = type t), checking
// the preconditions every shanten function shares. The chiitoi and kokushi counts and the
// candidate discards all come from the two masks.
struct Census {
  int total = 0;
  std::uint64_t ge1 = 0, ge2 = 0;
};

constexpr std::uint64_t kAllTypes = (std::uint64_t{1} << kNumTileTypes) - 1;

#if defined(__SSE2__)
// Bit t set where lane t of (x0: types 0-15, x1: 16-31, x2: 32-33) is nonzero.
inline std::uint64_t nonzero_lanes(__m128i x0, __m128i x1, __m128i x2) {
  const __m128i z = _mm_setzero_si128();
  const auto zero_bits = [&](__m128i x) { return static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, z)))); };
  return ~(zero_bits(x0) | zero_bits(x1) << 16 | zero_bits(x2) << 32) & kAllTypes;
}

Census census(const TileCounts& c) {
  const __m128i x0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c.data()));
  const __m128i x1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c.data() + 16));
  const __m128i x2 = _mm_cvtsi32_si128(c[32] | c[33] << 8);  // lanes 2-15 zero
  const auto minus = [](__m128i x, int k) { return _mm_subs_epu8(x, _mm_set1_epi8(static_cast<char>(k))); };
  Census s;
  s.ge1 = nonzero_lanes(x0, x1, x2);
  s.ge2 = nonzero_lanes(minus(x0, 1), minus(x1, 1), minus(x2, 1));
  const std::uint64_t over = nonzero_lanes(minus(x0, 4), minus(x1, 4), minus(x2, 4));
  const __m128i z = _mm_setzero_si128();
  const __m128i sums = _mm_add_epi64(_mm_add_epi64(_mm_sad_epu8(x0, z), _mm_sad_epu8(x1, z)), _mm_sad_epu8(x2, z));
  s.total = _mm_cvtsi128_si32(sums) + _mm_extract_epi16(sums, 4);
  HYDRA_CHECK(over == 0, "shanten: a tile count above 4 in " + to_compact(c));
  HYDRA_CHECK(s.total % 3 != 0 && s.total <= 14, "shanten: closed hand of " + std::to_string(s.total) + " tiles (need 3n+1 or 3n+2, at most 14)");
  return s;
}
#else
Census census(const TileCounts& c) {
  Census s;
  unsigned over = 0;
  for (int t = 0; t < kNumTileTypes; ++t) {
    const unsigned v = c[ix(t)];
    s.total += static_cast<int>(v);
    over |= v > 4U;
    s.ge1 |= static_cast<std::uint64_t>(v >= 1) << t;
    s.ge2 |= static_cast<std::uint64_t>(v >= 2) << t;
  }
  HYDRA_CHECK(over == 0, "shanten: a tile count above 4 in " + to_compact(c));
  HYDRA_CHECK(s.total % 3 != 0 && s.total <= 14, "shanten: closed hand of " + std::to_string(s.total) + " tiles (need 3n+1 or 3n+2, at most 14)");
  return s;
}
#endif

int closed_total(const TileCounts& c) { return census(c).total; }

// Min-plus convolution of two groups' entries, exact for melds m <= N (lanes above N and the
// pad lanes come out as don't-care values that no later step reads):
//   out[m]     = min over a + b = m of  A[a] + B[b]                      (no pair)
//   out[8 + m] = min over a + b = m of  A[a] + B[8 + b],  A[8 + a] + B[b]  (the pair in A or B)
// This is the hot path of every shanten call. With SSE2 (every x86-64) each split a is one shift
// of B, two byte broadcasts of A, two saturating adds and two mins.
#if defined(__SSE2__)
template <int K>
__m128i broadcast_lane(__m128i x) {  // all 16 lanes = lane K of x (SSE2 has no byte shuffle)
  const __m128i words = K < 8 ? _mm_unpacklo_epi8(x, x) : _mm_unpackhi_epi8(x, x);
  constexpr int w = K % 8;
  const __m128i half = w < 4 ? _mm_shufflelo_epi16(words, (w % 4) * 0x55) : _mm_shufflehi_epi16(words, (w % 4) * 0x55);
  return _mm_shuffle_epi32(half, w < 4 ? 0x00 : 0xFF);
}

// kPad in lanes [0, Shift) and [8, 8 + Shift): the lanes a shift by Shift leaves invalid.
template <int Shift>
struct ShiftPad {
  static constexpr std::array<std::uint8_t, 16> lanes = [] {
    std::array<std::uint8_t, 16> m{};
    for (int i = 0; i < Shift; ++i) m[ix(i)] = m[static_cast<std::size_t>(8 + i)] = kPad;
    return m;
  }();
};

template <int Shift>
__m128i shifted_b(__m128i b) {
  // Lane k moves to k + Shift; lanes that received nothing valid (below Shift in each half,
  // including no-pair lanes that slid into the pair half) are raised to kPad.
  const __m128i pad = _mm_loadu_si128(reinterpret_cast<const __m128i*>(ShiftPad<Shift>::lanes.data()));
  return _mm_max_epu8(_mm_slli_si128(b, Shift), pad);
}

template <int N, int A = 0>
void accumulate(__m128i a, __m128i b, __m128i& plain, __m128i& pair_in_a) {
  if constexpr (A <= N) {
    const __m128i bs = shifted_b<A>(b);
    plain = _mm_min_epu8(plain, _mm_adds_epu8(broadcast_lane<A>(a), bs));
    pair_in_a = _mm_min_epu8(pair_in_a, _mm_adds_epu8(broadcast_lane<8 + A>(a), bs));
    accumulate<N, A + 1>(a, b, plain, pair_in_a);
  }
}

template <int N>
__m128i combine(__m128i a, __m128i b) {
  const __m128i pad = _mm_set1_epi8(static_cast<char>(kPad));
  __m128i plain = pad, pair_in_a = pad;
  accumulate<N>(a, b, plain, pair_in_a);
  // pair_in_a's low lanes (A with pair + B without) belong to the pair half.
  return _mm_min_epu8(plain, _mm_unpacklo_epi64(pad, pair_in_a));
}

using Vec = __m128i;
inline Vec load(const Entry& e) { return _mm_load_si128(reinterpret_cast<const __m128i*>(e.v.data())); }

// Lane k of the result = lane 15 - k of x.
inline Vec reverse_bytes(Vec x) {
  x = _mm_or_si128(_mm_slli_epi16(x, 8), _mm_srli_epi16(x, 8));
  x = _mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0x1B), 0x1B);
  return _mm_shuffle_epi32(x, 0x4E);
}

inline int min_lane(Vec x) {
  x = _mm_min_epu8(x, _mm_srli_si128(x, 8));
  x = _mm_min_epu8(x, _mm_srli_si128(x, 4));
  x = _mm_min_epu8(x, _mm_srli_si128(x, 2));
  x = _mm_min_epu8(x, _mm_srli_si128(x, 1));
  return _mm_cvtsi128_si32(x) & 0xFF;
}

// 0 in the lanes a prepared operand keeps (0..N and 8..8+N), kPad elsewhere.
template <int N>
struct KeepPad {
  static constexpr std::array<std::uint8_t, 16> lanes = [] {
    std::array<std::uint8_t, 16> m{};
    for (int i = 0; i < 8; ++i)
      if (i > N) m[ix(i)] = m[static_cast<std::size_t>(8 + i)] = kPad;
    return m;
  }();
};

// Lane 8 + N of combine<N>(a, b) in two steps, for many a against one b: prepare<N>(b) lines b up
// against a, lane k of a meeting the lane of b that completes it to N melds and one pair
// (k <= N: b[8 + N - k]; 8 + k: b[N - k]; every other lane kPad), and last(a, prepared) is one
// saturating add and a horizontal min. Equal to the full convolution: min-plus convolution is
// associative and commutative, and saturation only touches sums that are never the minimum.
template <int N>
Vec prepare(Vec b) {
  const Vec pad = _mm_loadu_si128(reinterpret_cast<const __m128i*>(KeepPad<N>::lanes.data()));
  return _mm_max_epu8(_mm_srli_si128(reverse_bytes(b), 7 - N), pad);
}
inline int last(Vec a, Vec prepared) { return min_lane(_mm_adds_epu8(a, prepared)); }
#else
using Vec = Entry;
inline const Entry& load(const Entry& e) { return e; }

template <int N>
Entry combine(const Entry& a, const Entry& b) {
  Entry out;
  out.v.fill(kPad);
  for (int m = 0; m <= N; ++m) {
    int o0 = kPad, o1 = kPad;
    for (int ma = 0; ma <= m; ++ma) {
      const auto i = ix(ma), j = static_cast<std::size_t>(m - ma);
      o0 = std::min(o0, a.v[i] + b.v[j]);
      o1 = std::min({o1, a.v[i] + b.v[8 + j], a.v[8 + i] + b.v[j]});
    }
    out.v[ix(m)] = static_cast<std::uint8_t>(std::min(o0, 255));
    out.v[static_cast<std::size_t>(8 + m)] = static_cast<std::uint8_t>(std::min(o1, 255));
  }
  return out;
}

template <int N>
Entry prepare(const Entry& b) {
  Entry out;
  out.v.fill(kPad);
  for (int k = 0; k <= N; ++k) {
    out.v[ix(k)] = b.v[static_cast<std::size_t>(8 + N - k)];
    out.v[static_cast<std::size_t>(8 + k)] = b.v[static_cast<std::size_t>(N - k)];
  }
  return out;
}
inline int last(const Entry& a, const Entry& prepared) {
  int best = 255;
  for (std::size_t k = 0; k < 16; ++k) best = std::min(best, a.v[k] + prepared.v[k]);
  return best;
}
#endif

// Replacement number for N melds and one pair from the four groups' entries; shanten is this - 1.
template <int N>
int replacements(const Entry& man, const Entry& pin, const Entry& sou, const Entry& hon) {
  return last(combine<N>(load(man), load(pin)), prepare<N>(combine<N>(load(sou), load(hon))));
}

// The table entry of group g (0-2 = m p s, 3 = honours) of a hand.
const Entry& entry_of(const Tables& t, const TileCounts& c, int g) {
  return g < 3 ? t.suit[t.suit_rank.fast_rank(&c[static_cast<std::size_t>(9 * g)])]
               : t.honor[t.honor_rank.fast_rank(&c[27])];
}

int normal_from(const std::array<const Entry*, 4>& e, int melds) {
  switch (melds) {
    case 4: return replacements<4>(*e[0], *e[1], *e[2], *e[3]) - 1;
    case 3: return replacements<3>(*e[0], *e[1], *e[2], *e[3]) - 1;
    case 2: return replacements<2>(*e[0], *e[1], *e[2], *e[3]) - 1;
    case 1: return replacements<1>(*e[0], *e[1], *e[2], *e[3]) - 1;
    default: return replacements<0>(*e[0], *e[1], *e[2], *e[3]) - 1;
  }
}

int normal_of(const TileCounts& c, int total) {
  const Tables& t = tables();
  return normal_from({&entry_of(t, c, 0), &entry_of(t, c, 1), &entry_of(t, c, 2), &entry_of(t, c, 3)}, total / 3);
}

// Seven DIFFERENT pairs: a quad is one pair, and missing kinds must be drawn from scratch.
int chiitoi_from(int pairs, int kinds) { return 6 - pairs + std::max(0, 7 - kinds); }
// Inline bit count: without -mpopcnt std::popcount becomes a libgcc call.
constexpr int popcount(std::uint64_t x) {
  x -= (x >> 1) & 0x5555555555555555ULL;
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
}

int chiitoi_of(const Census& s) { return chiitoi_from(popcount(s.ge2), popcount(s.ge1)); }

constexpr std::uint64_t kYaochu = [] {
  std::uint64_t m = 0;
  for (int t : {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33}) m |= std::uint64_t{1} << t;
  return m;
}();

int kokushi_from(int yao_kinds, int yao_pairs) { return 13 - yao_kinds - (yao_pairs > 0 ? 1 : 0); }
int kokushi_of(const Census& s) { return kokushi_from(popcount(s.ge1 & kYaochu), popcount(s.ge2 & kYaochu)); }

bool fully_closed(int total) { return total >= 13; }

constexpr bool is_yaochu(int t) { return (kYaochu >> t) & 1U; }

// Where tile type t sits in the shape tables: its group, whether its digit is in the head or the
// tail base-5 index, and the digit's weight there.
struct Slot {
  std::uint8_t group, part;  // part 0 = head, 1 = tail
  std::uint16_t place;
};
constexpr std::array<Slot, kNumTileTypes> kSlots = [] {
  std::array<Slot, kNumTileTypes> out{};
  for (int t = 0; t < kNumTileTypes; ++t) {
    const bool suit = t < 27;
    const int d = suit ? t % 9 : t - 27;
    const int head = suit ? Ranker<9>::kHead : Ranker<7>::kHead;
    out[ix(t)] = {static_cast<std::uint8_t>(suit ? t / 9 : 3), static_cast<std::uint8_t>(d < head ? 0 : 1),
                                        static_cast<std::uint16_t>(suit ? Ranker<9>::place(d) : Ranker<7>::place(d))};
  }
  return out;
}();

constexpr std::array<std::uint64_t, 4> kGroupTypes = {0x1FFULL, 0x1FFULL << 9, 0x1FFULL << 18, 0x7FULL << 27};

// A hand prepared for "one tile more (Delta = +1) or less (-1)" questions (ukeire, discards),
// where the changed hand needs N melds and a pair. One tile changes one group's shape, so the
// other three groups are convolved once per group (rest_[g], prepared for last()), and each
// question costs one shape lookup (the group's base-5 index moved by one place, no digit loop),
// one add and one horizontal min. The chiitoi/kokushi shanten after the change depends only on
// whether the tile is a terminal or honour and whether its count crosses 1 (a kind) or 2 (a
// pair), so those six values are computed up front.
template <int N, int Delta>
class Neighbours {
 public:
  // `wanted`: the types that will be asked about (groups without any skip their convolution).
  Neighbours(const TileCounts& c, const Census& census, std::uint64_t wanted) : tables_(tables()), c_(c) {
    Vec e[4];  // plain arrays: std::array would drop __m128i's alignment attribute
    for (std::size_t g = 0; g < 4; ++g) {
      const RankIndex x = g < 3 ? Ranker<9>::index(&c_[9 * g]) : Ranker<7>::index(&c_[27]);
      idx_[g] = {x.head, x.tail};
      e[g] = load(g < 3 ? tables_.suit[tables_.suit_rank.rank_of(x)] : tables_.honor[tables_.honor_rank.rank_of(x)]);
    }
    const Vec mp = combine<N>(e[0], e[1]), sh = combine<N>(e[2], e[3]);
    if (wanted & kGroupTypes[0]) rest_[0] = prepare<N>(combine<N>(e[1], sh));
    if (wanted & kGroupTypes[1]) rest_[1] = prepare<N>(combine<N>(e[0], sh));
    if (wanted & kGroupTypes[2]) rest_[2] = prepare<N>(combine<N>(mp, e[3]));
    if (wanted & kGroupTypes[3]) rest_[3] = prepare<N>(combine<N>(mp, e[2]));
    const bool closed = fully_closed(census.total + Delta);
    const int pairs = popcount(census.ge2), kinds = popcount(census.ge1);
    const int yao_pairs = popcount(census.ge2 & kYaochu), yao_kinds = popcount(census.ge1 & kYaochu);
    for (int yao = 0; yao < 2; ++yao)
      for (int step = 0; step < 3; ++step) {
        const int kind_step = step == 1 ? Delta : 0, pair_step = step == 2 ? Delta : 0;
        other_[static_cast<std::size_t>(yao * 3 + step)] =
            closed ? std::min(chiitoi_from(pairs + pair_step, kinds + kind_step),
                              kokushi_from(yao_kinds + yao * kind_step, yao_pairs + yao * pair_step))
                   : kNoShanten;
      }
  }

  // Best shanten of the hand with one `t` added (Delta +1) or removed (Delta -1).
  int best_with(int t) const {
    const Slot s = kSlots[ix(t)];
    std::array<unsigned, 2> x = idx_[s.group];
    x[s.part] = Delta > 0 ? x[s.part] + s.place : x[s.part] - s.place;
    const RankIndex r{x[0], x[1]};
    const Entry& entry = s.group < 3 ? tables_.suit[tables_.suit_rank.rank_of(r)] : tables_.honor[tables_.honor_rank.rank_of(r)];
    const int normal = last(load(entry), rest_[s.group]) - 1;
    // Which tally the change moves: removing the only copy drops a kind, the second copy a pair;
    // adding to zero copies adds a kind, to one copy a pair.
    constexpr std::array<std::uint8_t, 5> kStep = Delta < 0 ? std::array<std::uint8_t, 5>{0, 1, 2, 0, 0}
                                                            : std::array<std::uint8_t, 5>{1, 2, 0, 0, 0};
    const int other = other_[static_cast<std::size_t>(3 * is_yaochu(t) + kStep[c_[ix(t)]])];
    return std::min(normal, other);
  }

 private:
  const Tables& tables_;
  const TileCounts& c_;
  std::array<std::array<unsigned, 2>, 4> idx_{};
  Vec rest_[4]{};
  std::array<int, 6> other_{};
};

// ukeire()'s precondition: the visible counts include the hand's own tiles and are at most 4.
void check_visible(const TileCounts& closed, const TileCounts& visible) {
  for (std::size_t t = 0; t < kNumTileTypes; ++t)
    HYDRA_CHECK(visible[t] >= closed[t] && visible[t] <= 4, "ukeire: visible counts must include the hand and be <= 4");
}

template <int N>
void ukeire_into(const TileCounts& closed, const TileCounts& visible, const Census& census, Ukeire& u) {
  check_visible(closed, visible);
  const Neighbours<N, +1> hand(closed, census, kAllTypes);
  for (int t = 0; t < kNumTileTypes; ++t) {
    const auto i = ix(t);
    if (closed[i] == 4) continue;
    if (hand.best_with(t) < u.shanten) {
      u.tiles.insert(TileType(t));
      u.unseen += 4 - visible[i];
    }
  }
}

template <int N>
void discards_into(const TileCounts& closed, const Census& census, DiscardShanten& d) {
  const Neighbours<N, -1> hand(closed, census, census.ge1);
  d.after.fill(static_cast<std::int8_t>(kNoShanten));
  // Only the held kinds: a loop over all 34 would branch on every empty one.
  for (std::uint64_t held = census.ge1; held != 0; held &= held - 1) {
    const int t = std::countr_zero(held);
    const int s = hand.best_with(t);
    d.after[ix(t)] = static_cast<std::int8_t>(s);
    d.best = std::min(d.best, s);
  }
}

}  // namespace

int shanten_normal(const TileCounts& closed) { return normal_of(closed, closed_total(closed)); }

int shanten_chiitoi(const TileCounts& closed) {
  const Census s = census(closed);
  return fully_closed(s.total) ? chiitoi_of(s) : kNoShanten;
}

int shanten_kokushi(const TileCounts& closed) {
  const Census s = census(closed);
  return fully_closed(s.total) ? kokushi_of(s) : kNoShanten;
}

Shanten shanten_all(const TileCounts& closed) {
  const Census c = census(closed);
  Shanten s;
  s.normal = normal_of(closed, c.total);
  if (fully_closed(c.total)) {
    s.chiitoi = chiitoi_of(c);
    s.kokushi = kokushi_of(c);
  }
  return s;
}

int shanten_best(const TileCounts& closed) { return shanten_all(closed).best(); }

Ukeire ukeire(const TileCounts& closed, const TileCounts& visible) {
  const Census c = census(closed);
  HYDRA_CHECK(c.total % 3 == 1, "ukeire: needs a 3n+1 closed hand, got " + std::to_string(c.total) + " tiles");
  Ukeire u;
  u.shanten = shanten_best(closed);
  switch ((c.total + 1) / 3) {  // melds of the hand after the draw
    case 4: ukeire_into<4>(closed, visible, c, u); break;
    case 3: ukeire_into<3>(closed, visible, c, u); break;
    case 2: ukeire_into<2>(closed, visible, c, u); break;
    case 1: ukeire_into<1>(closed, visible, c, u); break;
    default: ukeire_into<0>(closed, visible, c, u); break;
  }
  return u;
}

UkeireCache::UkeireCache(int bits) : slots_(std::size_t{1} << bits), shift_(64 - bits) {
  HYDRA_CHECK(bits >= 1 && bits <= 24, "UkeireCache: bits must be 1..24");
}

Ukeire UkeireCache::operator()(const TileCounts& closed, const TileCounts& visible) {
  // 34 counts of 0..4 in 3 bits each: types 0-20 in lo (63 bits), 21-33 in hi.
  std::uint64_t lo = 0, hi = 0;
  for (std::size_t t = 0; t < 21; ++t) lo |= std::uint64_t{closed[t]} << (3 * t);
  for (std::size_t t = 21; t < kNumTileTypes; ++t) hi |= std::uint64_t{closed[t]} << (3 * (t - 21));
  Slot& s = slots_[ix(static_cast<int>(((lo ^ (hi * 0x9E3779B97F4A7C15ULL)) * 0xFF51AFD7ED558CCDULL) >> shift_))];
  Ukeire u;
  if (s.lo == lo && s.hi == hi) {
    ++hits_;
    check_visible(closed, visible);  // `visible` changes from one question to the next
    u.shanten = s.shanten;
    u.tiles = TileMask(s.tiles);
    for (std::uint64_t b = s.tiles; b != 0; b &= b - 1) u.unseen += 4 - visible[ix(std::countr_zero(b))];
    return u;
  }
  ++misses_;
  u = ukeire(closed, visible);
  s = {lo, hi, u.tiles.bits(), u.shanten};
  return u;
}

DiscardShanten discard_shanten(const TileCounts& closed) {
  const Census c = census(closed);
  HYDRA_CHECK(c.total % 3 == 2, "discard_shanten: needs a 3n+2 closed hand, got " + std::to_string(c.total) + " tiles");
  DiscardShanten d;
  switch ((c.total - 1) / 3) {  // melds of the hand after the discard
    case 4: discards_into<4>(closed, c, d); break;
    case 3: discards_into<3>(closed, c, d); break;
    case 2: discards_into<2>(closed, c, d); break;
    case 1: discards_into<1>(closed, c, d); break;
    default: discards_into<0>(closed, c, d); break;
  }
  return d;
}

}  // namespace hydra::game
