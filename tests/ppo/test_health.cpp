// The guard rails of `hydra train` (ppo/health.hpp): a metric outside its healthy range for a
// whole window warns once, naming the metric and a remedy; coming back re-arms it; value warm-up
// updates are not judged on the policy metrics; the baseline rank warns on its window mean.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hydra/ppo/health.hpp"

namespace {

using hydra::metrics::Scalars;
using hydra::ppo::TrainingHealth;

Scalars healthy() {
  return {{"ppo/clip_fraction", 0.1}, {"ppo/approx_kl", 0.01}, {"loss/entropy", 1.1},
          {"ppo/explained_variance", 0.3}, {"ppo/value_warmup", 0}};
}

Scalars with(Scalars s, const std::string& tag, double v) {
  for (auto& [k, x] : s)
    if (k == tag) x = v;
  return s;
}

// Feeds `s` n times from update `step`; returns every warning given.
std::vector<std::string> feed(TrainingHealth& h, std::int64_t& step, const Scalars& s, int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i)
    for (auto& w : h.observe(++step, s)) out.push_back(w);
  return out;
}

// healthy() plus one update's games against the baseline: 6 of them at average rank `rank`.
Scalars with_baseline(double rank) {
  auto s = healthy();
  s.emplace_back("rank/vs_baseline", rank);
  s.emplace_back("rank/vs_baseline_games", 6);
  return s;
}

bool mentions(const std::string& w, const std::string& a, const std::string& b) {
  return w.find(a) != std::string::npos && w.find(b) != std::string::npos;
}

TEST(TrainingHealth, EachMetricWarnsOnceAfterAWholeWindowOutOfRange) {
  struct Case {
    std::string tag;
    double bad;
    std::string remedy;
  };
  const std::vector<Case> cases = {
      {"ppo/clip_fraction", 0.35, "ppo.lr"},           {"ppo/approx_kl", 0.08, "ppo.kl_stop"},
      {"ppo/approx_kl", 0.0, "raise ppo.lr"},           {"loss/entropy", 0.05, "ppo.entropy_start"},
      {"loss/entropy", 1.43, "ppo.entropy_target"},     {"ppo/explained_variance", -0.2, "ppo.value_warmup"},
  };
  for (const Case& c : cases) {
    TrainingHealth h(5);
    std::int64_t step = 0;
    EXPECT_TRUE(feed(h, step, healthy(), 3).empty()) << c.tag;
    const auto bad = with(healthy(), c.tag, c.bad);
    EXPECT_TRUE(feed(h, step, bad, 4).empty()) << c.tag << ": warned before a whole window";
    auto w = feed(h, step, bad, 1);
    ASSERT_EQ(w.size(), 1U) << c.tag;
    EXPECT_TRUE(mentions(w[0], c.tag, c.remedy)) << w[0];
    EXPECT_TRUE(feed(h, step, bad, 20).empty()) << c.tag << ": warned twice in one stretch";
    EXPECT_TRUE(feed(h, step, healthy(), 1).empty());
    EXPECT_TRUE(feed(h, step, bad, 4).empty());
    EXPECT_EQ(feed(h, step, bad, 1).size(), 1U) << c.tag << ": not re-armed by a healthy update";
  }
}

TEST(TrainingHealth, ValueWarmupUpdatesAndAWindowOfZeroAreNotJudged) {
  TrainingHealth h(3);
  std::int64_t step = 0;
  auto warm = with(with(healthy(), "ppo/value_warmup", 1), "ppo/approx_kl", 0.0);
  warm = with(warm, "ppo/explained_variance", -5.0);
  EXPECT_TRUE(feed(h, step, warm, 10).empty());
  TrainingHealth off(0);
  EXPECT_TRUE(feed(off, step, with(healthy(), "ppo/clip_fraction", 0.9), 50).empty());
}

TEST(TrainingHealth, LosingToTheBaselineWarnsOnTheWindowMean) {
  TrainingHealth h(4);
  std::int64_t step = 0;
  const auto s = with_baseline(2.4);
  EXPECT_TRUE(feed(h, step, s, 10).empty());
  // One bad update does not move a window of four past 2.6 (mean 2.55); a second does (2.7).
  EXPECT_TRUE(feed(h, step, with(s, "rank/vs_baseline", 3.0), 1).empty());
  const auto w = feed(h, step, with(s, "rank/vs_baseline", 3.0), 1);
  ASSERT_EQ(w.size(), 1U);
  EXPECT_TRUE(mentions(w[0], "rank/vs_baseline", "ppo.kl_anchor_start")) << w[0];
  EXPECT_TRUE(feed(h, step, with(s, "rank/vs_baseline", 3.0), 10).empty());
  // Updates without baseline games leave the window as it is.
  EXPECT_TRUE(feed(h, step, healthy(), 10).empty());
  // Too few games in the window: no verdict.
  TrainingHealth few(4);
  EXPECT_TRUE(feed(few, step, with(with(s, "rank/vs_baseline", 4.0), "rank/vs_baseline_games", 1), 8).empty());
}

// A start that is weaker than its baseline (BC of bot:greedy, judged against bot:greedy) is not
// "losing" by being where it began: it warns only when it falls 0.1 below its first window.
TEST(TrainingHealth, AStartWeakerThanItsBaselineIsJudgedAgainstItself) {
  TrainingHealth h(4);
  std::int64_t step = 0;
  const auto s = with_baseline(2.9);
  EXPECT_TRUE(feed(h, step, s, 20).empty());
  // Window mean 2.975: within 0.1 of the start.
  EXPECT_TRUE(feed(h, step, with(s, "rank/vs_baseline", 3.2), 1).empty());
  const auto w = feed(h, step, with(s, "rank/vs_baseline", 3.2), 1);  // 3.05
  ASSERT_EQ(w.size(), 1U);
  EXPECT_TRUE(mentions(w[0], "rank/vs_baseline", "first window 2.9;")) << w[0];
}

}  // namespace
