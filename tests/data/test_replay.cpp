// The replay checker against real Tenhou games: every event legal, every payment and score exact.

#include <gtest/gtest.h>

#include "hydra/data/mjai.hpp"
#include "hydra/data/replay.hpp"
#include "testdata.hpp"

namespace hydra::data {
namespace {

const game::TableRules& tenhou() { return game::table_rules("tenhou"); }

TEST(Replay, AllMjaiGamesPass) {
  HYDRA_REQUIRE_TESTDATA(dir, "mjai");
  const auto files = collect_log_files({dir.string()});
  ASSERT_EQ(files.size(), 34U);
  int passed = 0, horas = 0, decisions = 0;
  for (const auto& f : files) {
    const ReplayReport r = check_file(f, tenhou());
    EXPECT_EQ(r.status, ReplayStatus::pass) << r.message;
    passed += r.status == ReplayStatus::pass;
    horas += r.horas;
    decisions += r.decisions;
  }
  EXPECT_EQ(passed, 34);
  EXPECT_GT(horas, 250);
  EXPECT_GT(decisions, 10000);
}

}  // namespace
}  // namespace hydra::data
