// verify_encoder over the real games in HYDRA_TESTDATA/mjai and over random self-play hanchan:
// incremental == full at every decision point of every seat, every value finite and in range,
// and equivariance under the 6 suit permutations (observations and legal masks).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "hydra/data/mjai.hpp"
#include "hydra/encoder/verify.hpp"
#include "hydra/game/agent.hpp"
#include "hydra/game/runner.hpp"
#include "testdata.hpp"
#include "sanitized.hpp"

namespace hydra::encoder {
namespace {

// The mjai games of the shared data, sorted by name.
std::vector<std::filesystem::path> mjai_files(const std::filesystem::path& dir) {
  return hydra::testing::files_ending_with(dir, ".json.gz");
}

TEST(VerifyEncoder, AllRealGames) {
  HYDRA_REQUIRE_TESTDATA(dir, "mjai");
  const auto files = mjai_files(dir);
  ASSERT_GE(files.size(), 30U);
  long decisions = 0, permuted = 0;
  for (const auto& f : files) {
    const data::GameLog log = data::read_mjai(f);
    const VerifyReport r = verify_encoder(log.events, game::table_rules("tenhou"));
    ASSERT_TRUE(r.ok()) << f << ": " << r.failure;
    decisions += r.decisions;
    permuted += r.permuted;
  }
  EXPECT_GT(decisions, 10000);
  EXPECT_EQ(permuted, 5 * decisions);
  RecordProperty("decisions", static_cast<int>(decisions));
  std::printf("real games: %zu files, %ld decision points, %ld permuted checks\n", files.size(), decisions, permuted);
}

// 1,000 random-agent hanchan (the engine's table, every seat random; 240 in the sanitizer builds),
// in 4 shards that CTest can run side by side: incremental == full and every value in range at
// every decision point; every tenth game also under all 6 suit permutations.
class RandomHanchan : public ::testing::TestWithParam<int> {};

TEST_P(RandomHanchan, IncrementalEqualsFullEverywhere) {
  const game::TableRules& rules = game::table_rules("tenhou");
  std::array<game::RandomAgent, game::kNumSeats> agents;
  long decisions = 0, permuted = 0, kyoku = 0;
  const auto shard = static_cast<std::uint64_t>(hydra::testing::sized(250, 60));
  const auto first = static_cast<std::uint64_t>(GetParam()) * shard;
  for (std::uint64_t g = first; g < first + shard; ++g) {
    const game::GameKey key = game::game_key(game::MasterSeed{20260105}, g);
    const game::GameResult res = game::play_game(rules, key, {&agents[0], &agents[1], &agents[2], &agents[3]});
    VerifyOptions opts;
    opts.equivariance = g % 10 == 0;
    const VerifyReport r = verify_encoder(res.events, rules, opts);
    ASSERT_TRUE(r.ok()) << "game " << g << ": " << r.failure;
    decisions += r.decisions;
    permuted += r.permuted;
    kyoku += res.kyoku;
  }
  EXPECT_GT(decisions, static_cast<long>(1000 * shard));
  EXPECT_GT(permuted, static_cast<long>(100 * shard));
  std::printf("random hanchan %llu-%llu: %ld kyoku, %ld decision points, %ld permuted checks\n",
              static_cast<unsigned long long>(first), static_cast<unsigned long long>(first + shard - 1), kyoku, decisions,
              permuted);
}

INSTANTIATE_TEST_SUITE_P(Shards, RandomHanchan, ::testing::Range(0, 4));

}  // namespace
}  // namespace hydra::encoder
