// Real published cases run through the library: kobalab's 5,000 majiang-core wins (yaku with han,
// fu, total han or yakuman, points and all four payments), RiichiEnv's 816 wins (han, fu and
// Mahjong Soul fan ids, under the mahjongsoul preset) and its 200 non-winning hands.

#include <gtest/gtest.h>

#include "hydra/game/rules.hpp"
#include "hydra/game/score.hpp"
#include "hydra/game/score_check.hpp"
#include "testdata.hpp"

namespace hydra::game {
namespace {

void expect_all_agree(const CheckReport& rep, int expected_cases) {
  EXPECT_EQ(rep.checked, expected_cases);
  EXPECT_EQ(rep.agree, rep.checked) << rep.summary();
  for (const auto& d : rep.disagreements) ADD_FAILURE() << d;
}

TEST(ScoreCases, MajiangCore5000AllAgreeUnderTenhou) {
  HYDRA_REQUIRE_TESTDATA(file, "scoring/majiang_core_hule_5000.json");
  expect_all_agree(check_majiang(file, rules_preset("tenhou").scoring, 50), 5000);
}

TEST(ScoreCases, RiichiEnvAgariAllAgreeUnderMahjongSoul) {
  HYDRA_REQUIRE_TESTDATA(file, "scoring/riichienv_agari_4p.json");
  expect_all_agree(check_riichienv(file, rules_preset("mahjongsoul").scoring, 50), 816);
}

TEST(ScoreCases, RiichiEnvNegativesAreNeverWins) {
  HYDRA_REQUIRE_TESTDATA(file, "scoring/riichienv_hands_negative.json");
  expect_all_agree(check_riichienv(file, rules_preset("mahjongsoul").scoring, 50), 200);
}

}  // namespace
}  // namespace hydra::game
