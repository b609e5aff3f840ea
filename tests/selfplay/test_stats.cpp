// Statistics against hand-computed values: the per-seat counts of a small hand-made game, and
// the clustered intervals of a fixed set of three seeds (the numbers are worked out in the
// comments).

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "hydra/data/mjai.hpp"
#include "hydra/selfplay/eval_stats.hpp"
#include "hydra/selfplay/game_stats.hpp"
#include "hydra/common/index.hpp"

namespace hydra::selfplay {
namespace {

game::Event ev(const std::string& line) { return data::parse_mjai_line(line).event; }

const std::string kDeal =
    R"("bakaze":"E","honba":0,"kyotaku":0,"oya":0,"dora_marker":"1m","tehais":[)"
    R"(["?","?","?","?","?","?","?","?","?","?","?","?","?"],["?","?","?","?","?","?","?","?","?","?","?","?","?"],)"
    R"(["?","?","?","?","?","?","?","?","?","?","?","?","?"],["?","?","?","?","?","?","?","?","?","?","?","?","?"]]})";

TEST(GameStats, CountsAHandMadeGame) {
  const std::vector<game::Event> events = {
      ev(R"({"type":"start_game"})"),
      ev(R"({"type":"start_kyoku","kyoku":1,)" + kDeal),
      ev(R"({"type":"reach","actor":0})"),
      ev(R"({"type":"chi","actor":1,"target":0,"pai":"3m","consumed":["1m","2m"]})"),
      ev(R"({"type":"pon","actor":1,"target":3,"pai":"E","consumed":["E","E"]})"),
      ev(R"({"type":"hora","actor":0,"target":2,"pai":"5p","deltas":[9000,0,-8000,0]})"),
      ev(R"({"type":"start_kyoku","kyoku":2,)" + kDeal),
      ev(R"({"type":"pon","actor":2,"target":1,"pai":"C","consumed":["C","C"]})"),
      ev(R"({"type":"reach","actor":1})"),
      ev(R"({"type":"hora","actor":3,"target":3,"pai":"7s","deltas":[-1000,-1000,-2000,4000]})"),
      ev(R"({"type":"start_kyoku","kyoku":3,)" + kDeal),
      ev(R"({"type":"ryukyoku","deltas":[1500,1500,-1500,-1500]})"),
  };
  const game::Scores final_scores{34000, 21000, 20000, 25000};
  const GameStats s = game_stats(events, final_scores, {90, 45, 0, -135});
  // Ranks by score: seat 0, 3, 1, 2.
  SeatGame s0{1, 90, 34000, 3, 1, 0, 0, 1, 0, 1, 9000, 0};
  SeatGame s1{3, 0, 21000, 3, 0, 0, 0, 1, 1, 1, 0, 0};
  SeatGame s2{4, -135, 20000, 3, 0, 0, 1, 0, 1, 1, 0, 8000};
  SeatGame s3{2, 45, 25000, 3, 1, 1, 0, 0, 0, 1, 4000, 0};
  EXPECT_EQ(s[0], s0);
  EXPECT_EQ(s[1], s1);
  EXPECT_EQ(s[2], s2);
  EXPECT_EQ(s[3], s3);
}

// Three seeds. The challenger's ranks: seed 0: 1,1,1,1; seed 1: 1,1,2,2; seed 2: 2,2,2,2. The
// champion takes the other ranks of each game (sum of a game's ranks = 10). Challenger wins and
// kyoku per seed: 3 of 10, 0 of 5, 3 of 15.
std::vector<SeedGames> fixed_seeds() {
  const int ranks[3][4] = {{1, 1, 1, 1}, {1, 1, 2, 2}, {2, 2, 2, 2}};
  const int wins[3][4] = {{1, 1, 1, 0}, {0, 0, 0, 0}, {1, 1, 1, 0}};
  const int kyoku[3][4] = {{3, 3, 2, 2}, {2, 1, 1, 1}, {4, 4, 4, 3}};
  std::vector<SeedGames> seeds(3);
  for (int i = 0; i < 3; ++i)
    for (int c = 0; c < 4; ++c) {
      GameStats& g = seeds[ix(i)].games[ix(c)];
      int next = 1;
      for (int s = 0; s < 4; ++s) {
        SeatGame& sg = g[ix(s)];
        sg.kyoku = kyoku[i][c];
        if (s == c) {
          sg.rank = ranks[i][c];
          sg.wins = wins[i][c];
        } else {
          if (next == ranks[i][c]) ++next;
          sg.rank = next++;
        }
      }
    }
  return seeds;
}

const Metric& metric(std::string_view name) {
  for (const Metric& m : metrics())
    if (m.name == name) return m;
  throw std::runtime_error("no metric");
}

TEST(EvalStats, AverageRankAndPairedDifferenceByHand) {
  const auto seeds = fixed_seeds();
  const Metric& rank = metric("avg_rank");
  // Per-seed means 1, 1.5, 2: mean 1.5, sample sd 0.5, se 0.5 / sqrt 3 = 0.288675.
  const Estimate c = ratio_estimate(challenger_sums(seeds, rank));
  EXPECT_NEAR(c.value, 1.5, 1e-12);
  EXPECT_NEAR(c.se, 0.5 / std::sqrt(3.0), 1e-12);
  EXPECT_NEAR(c.lo, 0.934199, 1e-5);
  EXPECT_NEAR(c.hi, 2.065801, 1e-5);
  // Champion: 36, 34, 32 rank points over 12 seat-games each: 102 / 36.
  const Estimate h = ratio_estimate(champion_sums(seeds, rank));
  EXPECT_NEAR(h.value, 102.0 / 36.0, 1e-12);
  // Per-seed differences -2, -4/3, -2/3: mean -4/3, sd 2/3, se (2/3) / sqrt 3 = 0.384900.
  const Estimate d = paired_difference(challenger_sums(seeds, rank), champion_sums(seeds, rank));
  EXPECT_NEAR(d.value, -4.0 / 3.0, 1e-12);
  EXPECT_NEAR(d.se, (2.0 / 3.0) / std::sqrt(3.0), 1e-12);
  EXPECT_NEAR(d.lo, -4.0 / 3.0 - 1.96 * 0.3849002, 1e-6);
  EXPECT_NEAR(d.hi, -4.0 / 3.0 + 1.96 * 0.3849002, 1e-6);
}

TEST(EvalStats, RatioRateByHand) {
  const auto seeds = fixed_seeds();
  // 6 wins in 30 kyoku = 0.2; dbar = 10; deviations (3-2)/10, (0-1)/10, (3-3)/10;
  // se = sqrt(0.02 / 6) = 0.0577350.
  const Estimate w = ratio_estimate(challenger_sums(seeds, metric("win_rate")));
  EXPECT_NEAR(w.value, 0.2, 1e-12);
  EXPECT_NEAR(w.se, std::sqrt(0.02 / 6), 1e-12);
  EXPECT_NEAR(w.lo, 0.2 - 1.96 * 0.0577350, 1e-6);
  // The rank shares: firsts 4 + 2 + 0 and seconds 0 + 2 + 4, of 12 games each.
  EXPECT_NEAR(ratio_estimate(challenger_sums(seeds, metric("rank_1"))).value, 6.0 / 12.0, 1e-12);
  EXPECT_NEAR(ratio_estimate(challenger_sums(seeds, metric("rank_2"))).value, 6.0 / 12.0, 1e-12);
}

// Wilson score intervals at the clustered effective sample size n_eff = p (1 - p) / se^2, capped
// at the number of trials; the bounds were worked out from the closed form
// (p + z^2/2n +- z sqrt(p (1-p)/n + z^2/4n^2)) / (1 + z^2/n).
TEST(EvalStats, WilsonIntervalsForProportions) {
  const auto seeds = fixed_seeds();
  // First places 4, 2, 0 of 4 games: p = 0.5, se^2 = 0.5 / 6, n_eff = 0.25 / (0.5 / 6) = 3.
  const Metric& first = metric("rank_1");
  EXPECT_TRUE(first.proportion);
  const Estimate r1 = metric_estimate(first, challenger_sums(seeds, first));
  EXPECT_NEAR(r1.value, 0.5, 1e-12);
  EXPECT_NEAR(r1.lo, 0.1253315, 1e-6);
  EXPECT_NEAR(r1.hi, 0.8746685, 1e-6);
  // Win rate 6 / 30, se^2 = 0.02 / 6: n_eff = 0.16 / se^2 = 48 is capped at the 30 kyoku.
  const Estimate w = metric_estimate(metric("win_rate"), challenger_sums(seeds, metric("win_rate")));
  EXPECT_NEAR(w.value, 0.2, 1e-12);
  EXPECT_NEAR(w.lo, 0.0950498, 1e-6);
  EXPECT_NEAR(w.hi, 0.3730605, 1e-6);
  // 0 of 8 and 12 of 12: no spread, n = the trials; the interval keeps a width.
  const std::vector<Sums> none = {{0, 4}, {0, 4}};
  const Estimate z = wilson_estimate(none);
  EXPECT_EQ(z.lo, 0.0);
  EXPECT_NEAR(z.hi, 0.3244156, 1e-6);
  const std::vector<Sums> all = {{4, 4}, {4, 4}, {4, 4}};
  const Estimate a = wilson_estimate(all);
  EXPECT_NEAR(a.lo, 0.7574992, 1e-6);
  EXPECT_EQ(a.hi, 1.0);
  // Means keep the normal interval.
  const Metric& rank = metric("avg_rank");
  EXPECT_FALSE(rank.proportion);
  EXPECT_EQ(metric_estimate(rank, challenger_sums(seeds, rank)).lo, ratio_estimate(challenger_sums(seeds, rank)).lo);
}

TEST(EvalStats, UnknownWithoutData) {
  const std::vector<Sums> one = {{1, 1}};
  EXPECT_TRUE(std::isnan(ratio_estimate(one).lo));  // one seed: no interval
  const std::vector<Sums> none = {{0, 0}, {0, 0}};
  EXPECT_TRUE(std::isnan(ratio_estimate(none).value));  // e.g. the average win size with no win
}

TEST(EvalStats, NormalQuantile) {
  EXPECT_NEAR(normal_quantile(0.975), 1.959964, 1e-6);
  EXPECT_NEAR(normal_quantile(0.9975), 2.807034, 1e-6);
  EXPECT_NEAR(normal_quantile(0.5), 0.0, 1e-9);
}

}  // namespace
}  // namespace hydra::selfplay
