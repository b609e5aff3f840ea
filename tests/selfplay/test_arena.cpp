// The duplicate arena: reports reproduce exactly (same seed, any thread count), each seed's four
// games put the challenger in every seat over the same walls, and greedy beats random.

#include <array>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>

#include "hydra/common/error.hpp"
#include "hydra/selfplay/duplicate.hpp"
#include "hydra/selfplay/eval_report.hpp"
#include "one_game.hpp"

namespace hydra::selfplay {
namespace {

EvalOptions small(std::uint64_t seeds) {
  EvalOptions o;
  o.challenger = "bot:greedy";
  o.champion = "bot:random";
  o.seeds = seeds;
  o.master = game::MasterSeed{20260501};
  return o;
}

TEST(Arena, SameSeedSameReportAnyThreadCount) {
  const EvalOptions o = small(3);
  const std::string first = report_json(o, run_eval(o)).dump();
  EXPECT_EQ(report_json(o, run_eval(o)).dump(), first);
  {
    const oneapi::tbb::global_control one(oneapi::tbb::global_control::max_allowed_parallelism, 1);
    EXPECT_EQ(report_json(o, run_eval(o)).dump(), first);
  }
  EXPECT_EQ(report_table(o, run_eval(o)), report_table(o, run_eval(o)));
}

TEST(Arena, DuplicateSeatsAndGreedyBeatsRandom) {
  const EvalOptions o = small(3);
  const EvalResult r = run_eval(o);
  ASSERT_EQ(r.seeds.size(), 3u);
  EXPECT_EQ(r.games, 12u);
  double rank_sum = 0;
  for (std::size_t i = 0; i < r.seeds.size(); ++i) {
    // The same games played one at a time, one decision at a time.
    EXPECT_EQ(testing::play_seed_one_by_one(o, i).games, r.seeds[i].games);
    for (std::size_t c = 0; c < 4; ++c) {
      std::array<bool, 4> seen{};
      for (const SeatGame& g : r.seeds[i].games[c]) seen[static_cast<std::size_t>(g.rank - 1)] = true;
      EXPECT_EQ(seen, (std::array<bool, 4>{true, true, true, true}));
      rank_sum += r.seeds[i].games[c][c].rank;
    }
  }
  EXPECT_LT(rank_sum / 12, 2.0);
}

TEST(Arena, SequentialStopsOnAClearDifference) {
  EvalOptions o = small(12);
  o.sequential = {true, 4, 0};
  const EvalResult r = run_eval(o);
  EXPECT_EQ(r.sequential.max_looks, 3);
  // Greedy against random settles at the first look (4 seeds) or the second.
  EXPECT_TRUE(r.sequential.stopped_early);
  EXPECT_EQ(r.sequential.reason, "difference");
  EXPECT_LT(r.seeds.size(), 12u);
  EXPECT_EQ(r.seeds.size() % 4, 0u);
  EXPECT_LT(r.sequential.last.hi, 0);
}

// A part of a long evaluation (first_seed) plays the whole run's seeds: the same four games per
// seed as the whole run and as the games played one by one, numbered as in the whole run.
TEST(Arena, APartPlaysTheWholeRunsSeeds) {
  const EvalOptions whole = small(5);
  const EvalResult all = run_eval(whole);
  EvalOptions part = small(2);
  part.first_seed = 3;
  const EvalResult r = run_eval(part);
  ASSERT_EQ(r.seeds.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(r.seeds[i].seed, 3 + i);
    EXPECT_EQ(r.seeds[i].games, all.seeds[3 + i].games) << "seed " << 3 + i;
    EXPECT_EQ(r.seeds[i].games, testing::play_seed_one_by_one(part, 3 + i).games) << "seed " << 3 + i;
  }
  const auto report = report_json(part, r);
  EXPECT_EQ(report["first_seed"], 3);
  EXPECT_EQ(report["per_seed"]["seed"], (nlohmann::ordered_json{3, 4}));
}

TEST(Arena, BadOptions) {
  EvalOptions o = small(0);
  EXPECT_THROW((void)run_eval(o), Error);
  o = small(1);
  o.champion = "bot:unknown";
  EXPECT_THROW((void)run_eval(o), Error);
  o = small(2);
  o.first_seed = std::numeric_limits<std::uint64_t>::max() - 1;
  EXPECT_THROW((void)run_eval(o), Error);
}

}  // namespace
}  // namespace hydra::selfplay
