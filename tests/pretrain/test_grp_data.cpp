// GRP data from real logs: the kyoku starts and the final ranking of one game, checked by hand
// against the file, and the duplicate detection across two formats of the same games.

#include <gtest/gtest.h>

#include "hydra/data/mjai.hpp"
#include "hydra/pretrain/grp_data.hpp"
#include "testdata.hpp"

namespace hydra::pretrain {
namespace {

// 2010081709gm-00a9-0000-fe3371ad.json.gz (gimite mjai, no scores in start_kyoku): the scores at
// each start come from the previous hora/ryukyoku "scores"; riichi sticks are what those scores
// miss from 100,000 (E2-1: 23500 + 34200 + 17800 + 23500 = 99,000, one stick).
TEST(GrpData, KyokuStartsAndRanksOfARealGame) {
  HYDRA_REQUIRE_TESTDATA(dir, "mjai");
  const auto file = dir / "2010081709gm-00a9-0000-fe3371ad.json.gz";
  const GrpGame g = extract_grp_game(data::read_mjai(file), file.string());
  // E1 E2 E2-1 E2-2 E3 E3-1 E3-2 E4 E4-1 S1 S2 S2-1 S3 S3-1 S4.
  ASSERT_EQ(g.kyoku.size(), 15u);
  const auto expect = [&](std::size_t i, int round, int honba, int sticks, std::array<int, 4> scores) {
    SCOPED_TRACE("kyoku " + std::to_string(i));
    EXPECT_EQ(g.kyoku[i].round, round);
    EXPECT_EQ(g.kyoku[i].honba, honba);
    EXPECT_EQ(g.kyoku[i].riichi_sticks, sticks);
    EXPECT_EQ(g.kyoku[i].scores, scores);
  };
  expect(0, 0, 0, 0, {25000, 25000, 25000, 25000});
  expect(1, 1, 0, 0, {25000, 33700, 16300, 25000});
  expect(2, 1, 1, 1, {23500, 34200, 17800, 23500});
  expect(3, 1, 2, 0, {23500, 39400, 14600, 22500});
  expect(9, 4, 0, 0, {26700, 34500, 17300, 21500});   // S1 after E4-1's tsumo
  expect(11, 5, 1, 0, {26200, 45200, 7400, 21200});   // S2-1
  expect(14, 7, 0, 0, {23100, 37800, 7200, 31900});   // S4, the last kyoku
  EXPECT_EQ(g.final_scores, (std::array<int, 4>{20100, 35800, 5200, 38900}));
  // Seat 3 first, seat 1 second, seat 0 third, seat 2 fourth.
  EXPECT_EQ(g.ranks, (model::Ranks{2, 1, 3, 0}));
  // Lexicographic index of (2,1,3,0): 2 * 3! + 1 * 2! + 1 * 1! = 15.
  EXPECT_EQ(g.permutation, 15);
}

TEST(GrpData, TruncatedGameIsRefusedByName) {
  data::GameLog log;
  game::Event e;
  e.type = game::EventType::start_kyoku;
  e.bakaze = game::TileType(27);
  e.kyoku = 1;
  e.scores = {25000, 25000, 25000, 25000};
  log.events.push_back(e);
  try {
    extract_grp_game(log, "cut.json");
    FAIL() << "a game without end_game was accepted";
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("cut.json: the game has no end_game"), std::string::npos) << err.what();
  }
}

// The 34 Tenhou XML games are the 34 mjai games in another format: every one is a duplicate.
TEST(GrpData, SameGamesFromTwoFormatsAreCountedOnce) {
  HYDRA_REQUIRE_TESTDATA(root, "");
  const GrpCorpus c = load_grp_corpus({(root / "mjai").string(), (root / "tenhou_xml").string()}, 0.25, game::MasterSeed{1});
  EXPECT_EQ(c.files, 68);
  EXPECT_TRUE(c.bad.empty()) << (c.bad.empty() ? "" : c.bad[0].reason);
  EXPECT_EQ(c.duplicates, 34);
  EXPECT_EQ(c.train.size() + c.validation.size(), 34u);
  EXPECT_FALSE(c.validation.empty());
  EXPECT_FALSE(c.train.empty());
}

}  // namespace
}  // namespace hydra::pretrain
