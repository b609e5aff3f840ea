#pragma once

// Statistics of a 1v3 duplicate evaluation with 95% confidence intervals.
//
// The unit of independence is the wall seed: its four games share every wall, so they are
// strongly correlated and are never treated as independent samples. Every reported number is a
// ratio of sums over seeds, R = sum_i num_i / sum_i den_i (average rank: num = sum of the
// challenger's ranks in the seed's 4 games, den = 4; win rate: num = wins, den = kyoku played;
// average win size: num = points won, den = wins), and its standard error is the clustered
// (delta-method) one:
//   se(R)^2 = sum_i (num_i - R den_i)^2 / (n (n - 1) dbar^2),   dbar = sum_i den_i / n.
// For a plain mean (den_i constant) this is exactly the sample standard error of the per-seed
// means. The challenger-minus-champion difference is paired by seed: with
// z_i = (num_i - R den_i) / dbar for each side, se(Ra - Rb)^2 = sum_i (za_i - zb_i)^2 / (n (n - 1)).
// Intervals are R +- 1.96 se (normal approximation; n >= 2, else unknown = NaN), except for the
// proportions (rank shares and the per-kyoku rates, Metric::proportion): those get a Wilson score
// interval, which stays inside [0, 1] and keeps a width at 0% and 100%, taken with the effective
// sample size of the clustered estimate, n_eff = R (1 - R) / se^2 (the number of independent
// trials that would give that standard error), capped at the number of trials sum_i den_i; when
// se = 0 (R = 0 or 1 in every seed) n_eff is that number of trials. Differences stay normal.

#include <array>
#include <cstddef>
#include <string_view>
#include <vector>

#include "hydra/selfplay/game_stats.hpp"

namespace hydra::selfplay {

struct Estimate {
  double value = 0;  // NaN when the denominator is zero
  double lo = 0, hi = 0;  // the 95% interval; NaN when it cannot be estimated
  double se = 0;
};

// One metric of the report: how one seat-game contributes to its numerator and denominator.
struct Metric {
  std::string_view name;  // JSON key
  std::string_view label;  // table row
  double (*num)(const SeatGame&);
  double (*den)(const SeatGame&);
  bool proportion = false;  // num <= den, a count of 0/1 outcomes: Wilson interval
};
const std::vector<Metric>& metrics();  // avg_rank, avg_pt, rank_1..4, rates, sizes

// Per seed: the sums of one side's seat-games.
struct Sums {
  double num = 0, den = 0;
};

Estimate ratio_estimate(const std::vector<Sums>& per_seed, double z = 1.96);
Estimate paired_difference(const std::vector<Sums>& a, const std::vector<Sums>& b, double z = 1.96);
// The ratio with a Wilson interval at the clustered effective sample size (see above).
Estimate wilson_estimate(const std::vector<Sums>& per_seed, double z = 1.96);
// wilson_estimate for proportions, ratio_estimate otherwise: what the report prints per side.
Estimate metric_estimate(const Metric& m, const std::vector<Sums>& per_seed, double z = 1.96);

// The standard normal quantile Phi^-1(p), 0 < p < 1 (bisection on erfc, 1e-12 accurate).
double normal_quantile(double p);

// The results of one seed: games[c] is the game with the challenger at seat c (the champion in
// the other three).
struct SeedGames {
  std::uint64_t seed = 0;  // the wall seed's index: duplicates with the same --seed pair by it
  std::array<GameStats, game::kNumSeats> games{};
};

// The per-seed sums of metric m for the challenger (its seat in each of the 4 games) and the
// champion (the other 12 seat-games).
std::vector<Sums> challenger_sums(const std::vector<SeedGames>& seeds, const Metric& m);
std::vector<Sums> champion_sums(const std::vector<SeedGames>& seeds, const Metric& m);

}  // namespace hydra::selfplay
