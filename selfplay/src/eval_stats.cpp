#include "hydra/selfplay/eval_stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hydra::selfplay {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Totals {
  double num = 0, den = 0;
};

Totals totals(const std::vector<Sums>& s) {
  Totals t;
  for (const Sums& x : s) {
    t.num += x.num;
    t.den += x.den;
  }
  return t;
}

// The per-seed linearised deviations z_i of a ratio estimate (see the header).
std::vector<double> deviations(const std::vector<Sums>& s, double ratio, double dbar) {
  std::vector<double> z(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) z[i] = (s[i].num - ratio * s[i].den) / dbar;
  return z;
}

Estimate with_interval(double value, double sum_sq, std::size_t n, double z) {
  Estimate e{value, kNaN, kNaN, kNaN};
  if (std::isnan(value) || n < 2) return e;
  e.se = std::sqrt(sum_sq / (static_cast<double>(n) * static_cast<double>(n - 1)));
  e.lo = value - z * e.se;
  e.hi = value + z * e.se;
  return e;
}

}  // namespace

Estimate ratio_estimate(const std::vector<Sums>& per_seed, double z) {
  const Totals t = totals(per_seed);
  if (t.den <= 0) return {kNaN, kNaN, kNaN, kNaN};
  const double r = t.num / t.den;
  double sq = 0;
  for (double d : deviations(per_seed, r, t.den / static_cast<double>(per_seed.size()))) sq += d * d;
  return with_interval(r, sq, per_seed.size(), z);
}

Estimate paired_difference(const std::vector<Sums>& a, const std::vector<Sums>& b, double z) {
  const Totals ta = totals(a), tb = totals(b);
  if (ta.den <= 0 || tb.den <= 0 || a.size() != b.size()) return {kNaN, kNaN, kNaN, kNaN};
  const double n = static_cast<double>(a.size());
  const double ra = ta.num / ta.den, rb = tb.num / tb.den;
  const auto za = deviations(a, ra, ta.den / n), zb = deviations(b, rb, tb.den / n);
  double sq = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sq += (za[i] - zb[i]) * (za[i] - zb[i]);
  return with_interval(ra - rb, sq, a.size(), z);
}

Estimate wilson_estimate(const std::vector<Sums>& per_seed, double z) {
  Estimate e = ratio_estimate(per_seed, z);
  if (std::isnan(e.lo)) return e;
  const double p = e.value;
  const double trials = totals(per_seed).den;
  const double n = e.se > 0 && p > 0 && p < 1 ? std::min(trials, p * (1 - p) / (e.se * e.se)) : trials;
  const double z2n = z * z / n;
  const double center = (p + z2n / 2) / (1 + z2n);
  const double half = z * std::sqrt(p * (1 - p) / n + z2n / (4 * n)) / (1 + z2n);
  e.lo = std::max(0.0, center - half);
  e.hi = std::min(1.0, center + half);
  return e;
}

Estimate metric_estimate(const Metric& m, const std::vector<Sums>& per_seed, double z) {
  return m.proportion ? wilson_estimate(per_seed, z) : ratio_estimate(per_seed, z);
}

double normal_quantile(double p) {
  // Phi(x) = erfc(-x / sqrt 2) / 2 is increasing: bisect on [-40, 40].
  double lo = -40, hi = 40;
  for (int i = 0; i < 200 && hi - lo > 1e-13; ++i) {
    const double mid = (lo + hi) / 2;
    (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

const std::vector<Metric>& metrics() {
  static const std::vector<Metric> all = {
      {"avg_rank", "average rank", [](const SeatGame& g) { return double(g.rank); }, [](const SeatGame&) { return 1.0; }},
      {"avg_pt", "average pt", [](const SeatGame& g) { return double(g.pt); }, [](const SeatGame&) { return 1.0; }},
      {"rank_1", "1st", [](const SeatGame& g) { return double(g.rank == 1); }, [](const SeatGame&) { return 1.0; }, true},
      {"rank_2", "2nd", [](const SeatGame& g) { return double(g.rank == 2); }, [](const SeatGame&) { return 1.0; }, true},
      {"rank_3", "3rd", [](const SeatGame& g) { return double(g.rank == 3); }, [](const SeatGame&) { return 1.0; }, true},
      {"rank_4", "4th", [](const SeatGame& g) { return double(g.rank == 4); }, [](const SeatGame&) { return 1.0; }, true},
      {"win_rate", "win rate", [](const SeatGame& g) { return double(g.wins); }, [](const SeatGame& g) { return double(g.kyoku); }, true},
      {"deal_in_rate", "deal-in rate", [](const SeatGame& g) { return double(g.deal_ins); },
       [](const SeatGame& g) { return double(g.kyoku); }, true},
      {"riichi_rate", "riichi rate", [](const SeatGame& g) { return double(g.riichi); },
       [](const SeatGame& g) { return double(g.kyoku); }, true},
      {"call_rate", "call rate", [](const SeatGame& g) { return double(g.call_kyoku); },
       [](const SeatGame& g) { return double(g.kyoku); }, true},
      {"tsumo_rate", "tsumo rate", [](const SeatGame& g) { return double(g.tsumo_wins); },
       [](const SeatGame& g) { return double(g.kyoku); }, true},
      {"ryuukyoku_rate", "ryuukyoku rate", [](const SeatGame& g) { return double(g.ryuukyoku); },
       [](const SeatGame& g) { return double(g.kyoku); }, true},
      {"avg_win", "average win", [](const SeatGame& g) { return double(g.win_points); },
       [](const SeatGame& g) { return double(g.wins); }},
      {"avg_deal_in", "average deal-in", [](const SeatGame& g) { return double(g.deal_in_points); },
       [](const SeatGame& g) { return double(g.deal_ins); }},
  };
  return all;
}

std::vector<Sums> challenger_sums(const std::vector<SeedGames>& seeds, const Metric& m) {
  std::vector<Sums> out(seeds.size());
  for (std::size_t i = 0; i < seeds.size(); ++i)
    for (std::size_t c = 0; c < game::kNumSeats; ++c) {
      out[i].num += m.num(seeds[i].games[c][c]);
      out[i].den += m.den(seeds[i].games[c][c]);
    }
  return out;
}

std::vector<Sums> champion_sums(const std::vector<SeedGames>& seeds, const Metric& m) {
  std::vector<Sums> out(seeds.size());
  for (std::size_t i = 0; i < seeds.size(); ++i)
    for (std::size_t c = 0; c < game::kNumSeats; ++c)
      for (std::size_t s = 0; s < game::kNumSeats; ++s)
        if (s != c) {
          out[i].num += m.num(seeds[i].games[c][s]);
          out[i].den += m.den(seeds[i].games[c][s]);
        }
  return out;
}

}  // namespace hydra::selfplay
