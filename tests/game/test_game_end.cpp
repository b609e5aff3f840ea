// When a game ends, for every Tenhou preset, on hand-built all-last situations: Tenhou stops the
// game automatically when the all-last dealer wins or is tenpai at the exhaustive draw and is
// then top with >= 30,000 ("Tenhou.net rules", docs/RULES.md); otherwise the dealer's renchan
// plays on, and without renchan the game ends once someone has 30,000 (or at the final round).

#include <gtest/gtest.h>

#include <string>

#include "hydra/game/kyoku.hpp"

namespace hydra::game {
namespace {

KyokuOutcome dealer_tenpai_draw() {
  KyokuOutcome o;
  o.exhaustive = true;
  o.dealer_tenpai = true;
  return o;
}
KyokuOutcome dealer_win() {
  KyokuOutcome o;
  o.win = o.dealer_won = true;
  return o;
}
KyokuOutcome dealer_noten_draw() {
  KyokuOutcome o;
  o.exhaustive = true;
  return o;
}

GameProgress at_round(int round, int honba = 0) {
  GameProgress p;
  p.round = round;
  p.honba = honba;
  return p;
}

struct Preset {
  const char* name;
  int all_last;  // South 4 of a hanchan, East 4 of a tonpuusen
};

// Scores with the dealer of `round` holding `dealer`, the next seat `other` and the remaining two
// seats splitting the rest of the 100,000 evenly.
Scores with_dealer(int round, int dealer, int other) {
  Scores s{};
  const int oya = round % 4;
  const int rest = (100000 - dealer - other) / 2;
  for (int k = 0; k < kNumSeats; ++k) s[static_cast<std::size_t>((oya + k) % 4)] = k == 0 ? dealer : k == 1 ? other : rest;
  return s;
}

class GameEndTenhou : public ::testing::TestWithParam<Preset> {
 protected:
  const TableRules& rules() const { return table_rules(GetParam().name); }
  int all_last() const { return GetParam().all_last; }
};

TEST_P(GameEndTenhou, AllLastDealerTenpaiAndTopWithTargetEndsTheGame) {
  const Scores s = with_dealer(all_last(), 34000, 26000);
  EXPECT_EQ(game_end(at_round(all_last()), dealer_tenpai_draw(), s, rules()), GameEnd::tenpai_yame);
  EXPECT_FALSE(next_kyoku(at_round(all_last()), dealer_tenpai_draw(), s, 0, rules()).has_value());
  EXPECT_EQ(game_end(at_round(all_last()), dealer_win(), s, rules()), GameEnd::agari_yame);
}

TEST_P(GameEndTenhou, EveryExtensionKyokuIsAllLast) {
  for (int round = all_last() + 1; round <= all_last() + 4; ++round) {
    const Scores s = with_dealer(round, 31000, 29000);
    EXPECT_EQ(game_end(at_round(round), dealer_tenpai_draw(), s, rules()), GameEnd::tenpai_yame) << round;
  }
}

TEST_P(GameEndTenhou, DealerTenpaiPlaysOnWhenNotTopOrBelowTarget) {
  // Top but under 30,000: the renchan plays on (nobody can end it yet).
  Scores s = with_dealer(all_last(), 29000, 28000);
  auto next = next_kyoku(at_round(all_last()), dealer_tenpai_draw(), s, 0, rules());
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(next->round, all_last());
  EXPECT_EQ(next->honba, 1);
  // Over 30,000 but second: plays on as well, although someone else has 30,000.
  s = with_dealer(all_last(), 31000, 33000);
  next = next_kyoku(at_round(all_last()), dealer_tenpai_draw(), s, 0, rules());
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(next->round, all_last());
  EXPECT_EQ(why_game_goes_on(at_round(all_last()), dealer_tenpai_draw(), s, rules()),
            "the dealer's renchan: the dealer is not top with >= 30000");
}

TEST_P(GameEndTenhou, BeforeAllLastTheDealerTenpaiPlaysOn) {
  const int round = all_last() - 1;
  const Scores s = with_dealer(round, 40000, 20000);
  EXPECT_EQ(game_end(at_round(round), dealer_tenpai_draw(), s, rules()), GameEnd::none);
  EXPECT_EQ(why_game_goes_on(at_round(round), dealer_tenpai_draw(), s, rules()), "not yet all-last");
}

TEST_P(GameEndTenhou, WithoutRenchanTheTargetOrTheFinalRoundEndsIt) {
  EXPECT_EQ(game_end(at_round(all_last()), dealer_noten_draw(), with_dealer(all_last(), 20000, 31000), rules()),
            GameEnd::target_reached);
  const Scores low = with_dealer(all_last(), 25000, 29000);
  const auto west = next_kyoku(at_round(all_last()), dealer_noten_draw(), low, 0, rules());
  ASSERT_TRUE(west.has_value());
  EXPECT_EQ(west->round, all_last() + 1);
  EXPECT_EQ(why_game_goes_on(at_round(all_last()), dealer_noten_draw(), low, rules()), "nobody has >= 30000 (extension round)");
  EXPECT_EQ(game_end(at_round(all_last() + 4), dealer_noten_draw(), low, rules()), GameEnd::final_round);
}

INSTANTIATE_TEST_SUITE_P(Presets, GameEndTenhou,
                         ::testing::Values(Preset{"tenhou", 7}, Preset{"tenhou-tonpuusen", 3}),
                         [](const auto& p) { return std::string(p.param.name) == "tenhou" ? "hanchan" : "tonpuusen"; });

// The one-kyoku preset ends after its kyoku whatever happened; tenpai-yame is on there too.
TEST(GameEnd, TenhouKyokuEndsAfterOneKyokuAndAllTenhouPresetsHaveTenpaiYame) {
  const TableRules& k = table_rules("tenhou-kyoku");
  EXPECT_EQ(game_end(at_round(0), dealer_tenpai_draw(), {40000, 20000, 20000, 20000}, k), GameEnd::one_kyoku);
  for (const char* name : {"tenhou", "tenhou-tonpuusen", "tenhou-kyoku", "mahjongsoul"}) {
    EXPECT_TRUE(table_rules(name).tenpai_yame) << name;
    EXPECT_TRUE(table_rules(name).agari_yame) << name;
  }
}

// Tenhou's rules of March 2009 (tenhou-2009, tenhou-2009-tonpuusen; docs/RULES.md): the all-last
// dealer who is tenpai at the exhaustive draw plays on even when top with >= 30,000 (a win still
// ends the game), and the sudden death goes on from wind round to wind round, North 4 the last.
TEST(GameEnd, Tenhou2009HasNoTenpaiYameAndItsExtensionGoesOnToNorth4) {
  for (const auto& [name, all_last] : {std::pair{"tenhou-2009", 7}, std::pair{"tenhou-2009-tonpuusen", 3}}) {
    SCOPED_TRACE(name);
    const TableRules& r = table_rules(name);
    const Scores top = with_dealer(all_last, 34000, 26000);
    EXPECT_EQ(game_end(at_round(all_last), dealer_tenpai_draw(), top, r), GameEnd::none);
    EXPECT_EQ(why_game_goes_on(at_round(all_last), dealer_tenpai_draw(), top, r), "the dealer's renchan: tenpai_yame is off");
    const auto next = next_kyoku(at_round(all_last), dealer_tenpai_draw(), top, 0, r);
    ASSERT_TRUE(next.has_value());
    EXPECT_EQ(next->round, all_last);
    EXPECT_EQ(next->honba, 1);
    EXPECT_EQ(game_end(at_round(all_last), dealer_win(), top, r), GameEnd::agari_yame);
    // Nobody at 30,000: every round after the scheduled ones follows, to North 4 (round 15).
    for (int round = all_last; round < 15; ++round) {
      const Scores low = with_dealer(round, 25000, 29000);
      const auto after = next_kyoku(at_round(round), dealer_noten_draw(), low, 0, r);
      ASSERT_TRUE(after.has_value()) << round;
      EXPECT_EQ(after->round, round + 1);
      EXPECT_EQ(game_end(at_round(round), dealer_noten_draw(), with_dealer(round, 25000, 30000), r),
                GameEnd::target_reached)
          << round;
      // In the extension, too, the dealer's tenpai plays on.
      if (round > all_last) {
        EXPECT_EQ(game_end(at_round(round), dealer_tenpai_draw(), with_dealer(round, 31000, 29000), r), GameEnd::none)
            << round;
      }
    }
    EXPECT_EQ(game_end(at_round(15), dealer_noten_draw(), with_dealer(15, 25000, 29000), r), GameEnd::final_round);
  }
}

TEST(GameEnd, TobiBelowZeroEndsItAtOnce) {
  EXPECT_EQ(game_end(at_round(0), dealer_noten_draw(), {-100, 40100, 30000, 30000}, table_rules("tenhou")), GameEnd::tobi);
  EXPECT_EQ(game_end(at_round(0), dealer_noten_draw(), {0, 40000, 30000, 30000}, table_rules("tenhou")), GameEnd::none);
}

}  // namespace
}  // namespace hydra::game
