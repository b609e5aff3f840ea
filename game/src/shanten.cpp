#include "hydra/game/shanten.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "hydra/common/error.hpp"

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
using Entry = std::array<std::uint8_t, (kMaxMelds + 1) * 2>;  // [m * 2 + h]

constexpr int entry_index(int m, int h) { return m * 2 + h; }

// Shapes are ranked in lexicographic order of their digits; rank() adds, digit by digit, how
// many shapes with the same prefix and a smaller digit here come first. Building the table walks
// the shapes depth-first in the same order, so the leaf counter is the rank (checked at build).
template <int Digits>
struct Ranker {
  std::array<std::array<std::array<std::uint32_t, 5>, kMaxSum + 1>, Digits> offset{};
  std::uint32_t total = 0;

  Ranker() {
    // ways[len][budget]: shapes of `len` digits (each 0..4) with sum <= budget.
    std::array<std::array<std::uint32_t, kMaxSum + 1>, Digits + 1> ways{};
    for (int b = 0; b <= kMaxSum; ++b) ways[0][static_cast<std::size_t>(b)] = 1;
    for (int len = 1; len <= Digits; ++len)
      for (int b = 0; b <= kMaxSum; ++b)
        for (int v = 0; v <= std::min(4, b); ++v)
          ways[static_cast<std::size_t>(len)][static_cast<std::size_t>(b)] += ways[static_cast<std::size_t>(len - 1)][static_cast<std::size_t>(b - v)];
    for (int i = 0; i < Digits; ++i)
      for (int s = 0; s <= kMaxSum; ++s) {
        std::uint32_t acc = 0;
        for (int c = 0; c <= 4 && s + c <= kMaxSum; ++c) {
          offset[static_cast<std::size_t>(i)][static_cast<std::size_t>(s)][static_cast<std::size_t>(c)] = acc;
          acc += ways[static_cast<std::size_t>(Digits - 1 - i)][static_cast<std::size_t>(kMaxSum - s - c)];
        }
      }
    total = ways[Digits][kMaxSum];
  }

  std::uint32_t rank(const std::uint8_t* c) const {
    std::uint32_t r = 0;
    unsigned s = 0;
    for (int i = 0; i < Digits; ++i) {
      r += offset[static_cast<std::size_t>(i)][s][c[i]];
      s += c[i];
    }
    return r;
  }
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
      shape_[static_cast<std::size_t>(digit)] = static_cast<std::uint8_t>(c);
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
      HYDRA_CHECK(ranker_.rank(shape_.data()) == leaf_, "shanten table: rank order mismatch");
      Dp end;
      end.fill(kInf);
      for (const Move& mv : last_) {
        const std::uint8_t cost = dp[mv.from];
        if (cost == kInf) continue;
        const int add = cost + std::max(0, mv.need - c);
        if (add < end[mv.to]) end[mv.to] = static_cast<std::uint8_t>(add);
      }
      Entry& e = out_[leaf_++];
      for (int m = 0; m <= kMaxMelds; ++m)
        for (int h = 0; h < 2; ++h) e[static_cast<std::size_t>(entry_index(m, h))] = end[state(m, h, 0, 0)];
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

// Closed total, checking the preconditions every shanten function shares.
int closed_total(const TileCounts& c) {
  int total = 0;
  unsigned over = 0;
  for (std::uint8_t v : c) {
    total += v;
    over |= v > 4U;
  }
  HYDRA_CHECK(over == 0, "shanten: a tile count above 4 in " + to_compact(c));
  HYDRA_CHECK(total % 3 != 0 && total <= 14, "shanten: closed hand of " + std::to_string(total) + " tiles (need 3n+1 or 3n+2, at most 14)");
  return total;
}

// Min-plus convolution of two suits' entries for melds up to N (N is a template argument so
// the loops unroll: this is the hot path).
template <int N>
Entry combine(const Entry& a, const Entry& b) {
  Entry out{};
  for (int m = 0; m <= N; ++m) {
    int o0 = kInf, o1 = kInf;
    for (int ma = 0; ma <= m; ++ma) {
      const int mb = m - ma;
      const int a0 = a[static_cast<std::size_t>(entry_index(ma, 0))], a1 = a[static_cast<std::size_t>(entry_index(ma, 1))];
      const int b0 = b[static_cast<std::size_t>(entry_index(mb, 0))], b1 = b[static_cast<std::size_t>(entry_index(mb, 1))];
      o0 = std::min(o0, a0 + b0);
      o1 = std::min({o1, a0 + b1, a1 + b0});
    }
    out[static_cast<std::size_t>(entry_index(m, 0))] = static_cast<std::uint8_t>(o0);
    out[static_cast<std::size_t>(entry_index(m, 1))] = static_cast<std::uint8_t>(o1);
  }
  return out;
}

// Replacement number for N melds and one pair from the four suits' entries; shanten is this - 1.
template <int N>
int replacements(const Entry& man, const Entry& pin, const Entry& sou, const Entry& hon) {
  const Entry left = combine<N>(man, pin);
  const Entry right = combine<N>(sou, hon);
  int best = kInf;
  for (int m = 0; m <= N; ++m) {
    const int l0 = left[static_cast<std::size_t>(entry_index(m, 0))], l1 = left[static_cast<std::size_t>(entry_index(m, 1))];
    const int r0 = right[static_cast<std::size_t>(entry_index(N - m, 0))], r1 = right[static_cast<std::size_t>(entry_index(N - m, 1))];
    best = std::min({best, l0 + r1, l1 + r0});
  }
  return best;
}

int normal_of(const TileCounts& c, int total) {
  const Tables& t = tables();
  const Entry& man = t.suit[t.suit_rank.rank(&c[0])];
  const Entry& pin = t.suit[t.suit_rank.rank(&c[9])];
  const Entry& sou = t.suit[t.suit_rank.rank(&c[18])];
  const Entry& hon = t.honor[t.honor_rank.rank(&c[27])];
  switch (total / 3) {
    case 4: return replacements<4>(man, pin, sou, hon) - 1;
    case 3: return replacements<3>(man, pin, sou, hon) - 1;
    case 2: return replacements<2>(man, pin, sou, hon) - 1;
    case 1: return replacements<1>(man, pin, sou, hon) - 1;
    default: return replacements<0>(man, pin, sou, hon) - 1;
  }
}

int chiitoi_of(const TileCounts& c) {
  int pairs = 0, kinds = 0;
  for (std::uint8_t v : c) {
    pairs += v >= 2;
    kinds += v >= 1;
  }
  // Seven DIFFERENT pairs: a quad is one pair, and missing kinds must be drawn from scratch.
  return 6 - pairs + std::max(0, 7 - kinds);
}

constexpr std::array<int, 13> kYaochu = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

int kokushi_of(const TileCounts& c) {
  int kinds = 0;
  bool pair = false;
  for (int t : kYaochu) {
    kinds += c[static_cast<std::size_t>(t)] >= 1;
    pair = pair || c[static_cast<std::size_t>(t)] >= 2;
  }
  return 13 - kinds - (pair ? 1 : 0);
}

bool fully_closed(int total) { return total >= 13; }

}  // namespace

int shanten_normal(const TileCounts& closed) { return normal_of(closed, closed_total(closed)); }

int shanten_chiitoi(const TileCounts& closed) {
  return fully_closed(closed_total(closed)) ? chiitoi_of(closed) : kNoShanten;
}

int shanten_kokushi(const TileCounts& closed) {
  return fully_closed(closed_total(closed)) ? kokushi_of(closed) : kNoShanten;
}

Shanten shanten_all(const TileCounts& closed) {
  const int total = closed_total(closed);
  Shanten s;
  s.normal = normal_of(closed, total);
  if (fully_closed(total)) {
    s.chiitoi = chiitoi_of(closed);
    s.kokushi = kokushi_of(closed);
  }
  return s;
}

int shanten_best(const TileCounts& closed) { return shanten_all(closed).best(); }

Ukeire ukeire(const TileCounts& closed, const TileCounts& visible) {
  const int total = closed_total(closed);
  HYDRA_CHECK(total % 3 == 1, "ukeire: needs a 3n+1 closed hand, got " + std::to_string(total) + " tiles");
  Ukeire u;
  u.shanten = shanten_best(closed);
  TileCounts more = closed;
  for (int t = 0; t < kNumTileTypes; ++t) {
    const auto i = static_cast<std::size_t>(t);
    HYDRA_CHECK(visible[i] >= closed[i] && visible[i] <= 4, "ukeire: visible counts must include the hand and be <= 4");
    if (closed[i] == 4) continue;
    ++more[i];
    if (shanten_best(more) < u.shanten) {
      u.tiles.insert(TileType(t));
      u.unseen += 4 - visible[i];
    }
    --more[i];
  }
  return u;
}

DiscardShanten discard_shanten(const TileCounts& closed) {
  const int total = closed_total(closed);
  HYDRA_CHECK(total % 3 == 2, "discard_shanten: needs a 3n+2 closed hand, got " + std::to_string(total) + " tiles");
  DiscardShanten d;
  TileCounts less = closed;
  for (int t = 0; t < kNumTileTypes; ++t) {
    const auto i = static_cast<std::size_t>(t);
    if (closed[i] == 0) {
      d.after[i] = static_cast<std::int8_t>(kNoShanten);
      continue;
    }
    --less[i];
    const int s = shanten_best(less);
    ++less[i];
    d.after[i] = static_cast<std::int8_t>(s);
    d.best = std::min(d.best, s);
  }
  return d;
}

}  // namespace hydra::game
