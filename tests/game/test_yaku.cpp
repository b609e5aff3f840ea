// Every yaku and yakuman of the Tenhou rules on a hand built for it, with the han (or yakuman
// value) the rules give; the mahjongsoul preset's double yakuman; kazoe yakuman.

#include <gtest/gtest.h>

#include <algorithm>

#include "hydra/game/score.hpp"
#include "test_score_builder.hpp"

namespace hydra::game {
namespace {

using testing::WinOf;
using testing::YakuList;
using testing::yaku_of;

TEST(Yaku, SituationalOneHan) {
  // 234m 567m 345p 678s 22p, 4m ryanmen.
  const WinOf pinfu("23m567m345p678s22p");
  auto w = pinfu;
  EXPECT_EQ(yaku_of(w.win("4m").tsumo().riichi().ippatsu().haitei().score()),
            (YakuList{{"riichi", 1}, {"ippatsu", 1}, {"menzen tsumo", 1}, {"pinfu", 1}, {"tanyao", 1}, {"haitei", 1}}));
  w = pinfu;
  EXPECT_EQ(yaku_of(w.win("4m").houtei().score()), (YakuList{{"pinfu", 1}, {"tanyao", 1}, {"houtei", 1}}));
  w = pinfu;
  EXPECT_EQ(yaku_of(w.win("4m").chankan().score()), (YakuList{{"pinfu", 1}, {"tanyao", 1}, {"chankan", 1}}));
  w = pinfu;
  EXPECT_EQ(yaku_of(w.win("4m").double_riichi().ippatsu().score()),
            (YakuList{{"ippatsu", 1}, {"pinfu", 1}, {"tanyao", 1}, {"double riichi", 2}}));
}

TEST(Yaku, Iipeikou) {
  // 112233m 456p 78s 55p, 9s ryanmen: pinfu and iipeikou.
  const auto r = WinOf("112233m456p78s55p").win("9s").score();
  EXPECT_EQ(yaku_of(r), (YakuList{{"pinfu", 1}, {"iipeikou", 1}}));
}

TEST(Yaku, WindsAndDragons) {
  // Seat east in the east round: an east triplet is worth 2 (seat and round wind).
  const auto r = WinOf("111z234m567p88s99s").win("9s").dealer().score();
  EXPECT_EQ(yaku_of(r), (YakuList{{"seat wind", 1}, {"round wind", 1}}));
  // Haku pon, hatsu concealed, chun pair: shousangen (and both dragon yakuhai).
  const auto s = WinOf("666z77z123m45p").meld("z555=").win("3p").score();
  EXPECT_EQ(yaku_of(s), (YakuList{{"yakuhai haku", 1}, {"yakuhai hatsu", 1}, {"shousangen", 2}}));
}

TEST(Yaku, SanshokuIttsuAndOpenValues) {
  // 123m 789m 123p 23s+1s 55p: pinfu and sanshoku (2 closed).
  EXPECT_EQ(yaku_of(WinOf("123789m123p23s55p").win("1s").score()), (YakuList{{"pinfu", 1}, {"sanshoku doujun", 2}}));
  // The same with the 123m called: sanshoku is 1 han open.
  EXPECT_EQ(yaku_of(WinOf("789m123p23s55p").meld("m1-23").win("1s").score()), (YakuList{{"sanshoku doujun", 1}}));
  // 123456789m 234p, 5s tanki: ittsu.
  EXPECT_EQ(yaku_of(WinOf("123456789m234p5s").win("5s").score()), (YakuList{{"ittsu", 2}}));
  EXPECT_EQ(yaku_of(WinOf("456789m234p5s").meld("m1-23").win("5s").score()), (YakuList{{"ittsu", 1}}));
}

TEST(Yaku, ChantaAndJunchan) {
  // 123m 789p EEE 99s+9s, SS pair; seat west, east round: round wind and chanta.
  EXPECT_EQ(yaku_of(WinOf("123m789p99s11122z").win("9s").seat(Wind::west).score()),
            (YakuList{{"round wind", 1}, {"chanta", 2}}));
  // 123m 789p 123s 99s, 89m + 7m penchan: junchan (no pinfu on a penchan).
  EXPECT_EQ(yaku_of(WinOf("12389m789p123s99s").win("7m").score()), (YakuList{{"junchan", 3}}));
  // The same tiles won on 78m + 9m: a ryanmen, so pinfu too.
  EXPECT_EQ(yaku_of(WinOf("12378m789p123s99s").win("9m").score()), (YakuList{{"pinfu", 1}, {"junchan", 3}}));
}

TEST(Yaku, TriplesAndQuads) {
  // Open 444p, concealed 222m 666s, 888s by ron, 99s: toitoi only (two concealed triplets).
  // 20 + 2 + 4 + 4 + 2 = 32 -> 40 fu.
  const auto t = WinOf("222m666s88s99s").meld("p444-").win("8s").score();
  EXPECT_EQ(yaku_of(t), (YakuList{{"toitoi", 2}}));
  EXPECT_EQ(t.fu, 40);
  // 222m 222p 222s 345m, 7p tanki: tanyao, sanankou, sanshoku doukou.
  EXPECT_EQ(yaku_of(WinOf("222345m222p222s7p").win("7p").score()),
            (YakuList{{"tanyao", 1}, {"sanankou", 2}, {"sanshoku doukou", 2}}));
  // Three kans and a 9s tanki: sankantsu (rinshan on the replacement tile).
  EXPECT_EQ(yaku_of(WinOf("567m9s").meld("m2222").meld("p3333-").meld("s4444").win("9s").tsumo().rinshan().score()),
            (YakuList{{"rinshan kaihou", 1}, {"sankantsu", 2}}));
}

TEST(Yaku, TerminalsAndColours) {
  // Open EEE (not a yakuhai here), 999m 111p, 99s by ron, SS pair: toitoi and honroutou.
  EXPECT_EQ(yaku_of(WinOf("999m111p99s22z").meld("z111+").win("9s").seat(Wind::west).round(Wind::south).score()),
            (YakuList{{"toitoi", 2}, {"honroutou", 2}}));
  // Seven pairs of terminals and honours: chiitoitsu and honroutou, 25 fu.
  const auto c = WinOf("1199m1199p1s1122z").win("1s").score();
  EXPECT_EQ(yaku_of(c), (YakuList{{"chiitoitsu", 2}, {"honroutou", 2}}));
  EXPECT_EQ(c.fu, 25);
  // 123m 345m 777m EE SS, 2z by ron: honitsu (seat west, east round: the south triplet is no
  // yakuhai, the east pair only fu).
  EXPECT_EQ(yaku_of(WinOf("123345777m1122z").win("2z").seat(Wind::west).score()),
            (YakuList{{"honitsu", 3}}));
  // 234m 234m 567m 888m 99m, 9m tanki: chinitsu and iipeikou, 7 han = haneman.
  const auto ch = WinOf("2233445678889m").win("9m").score();
  EXPECT_EQ(yaku_of(ch), (YakuList{{"iipeikou", 1}, {"chinitsu", 6}}));
  EXPECT_EQ(ch.points, 12000);
}

TEST(Yaku, KazoeYakuman) {
  // Chinitsu 6, iipeikou 1, riichi 1, ippatsu 1, tsumo 1 and four dora: 14 han.
  const auto r = WinOf("2233445678889m").win("9m").tsumo().riichi().ippatsu().dora("1m2m").score();
  EXPECT_EQ(r.han, 14);
  EXPECT_EQ(r.limit, Limit::kazoe_yakuman);
  EXPECT_EQ(r.yakuman, 0);
  EXPECT_EQ(r.points, 32000);
}

// 111 222 333 66 888s won by tsumo reads as suuankou or as 123s x3 with chinitsu, iipeikou and
// enough han for kazoe yakuman: the same points, and the real yakuman is the one reported (found
// by the differential test against the mahjong package).
TEST(Yaku, RealYakumanBeatsKazoeAtEqualPoints) {
  const auto r = WinOf("1112223366888s").win("3s").tsumo().riichi().ippatsu().dora("4s5z").ura("07s").score();
  EXPECT_EQ(yaku_of(r), (YakuList{{"suuankou", 1}}));
  EXPECT_EQ(r.points, 32000);
}

struct YakumanCase {
  const char* what;
  WinOf win;
  YakuList tenhou;  // (name, value) under Tenhou
  int tenhou_points;
  int mahjongsoul_points;
};

TEST(Yaku, EveryYakumanAndPresetValues) {
  const std::vector<YakumanCase> cases = {
      {"kokushi", WinOf("119m19p19s123456z").win("7z"), {{"kokushi musou", 1}}, 32000, 32000},
      {"kokushi 13-sided", WinOf("19m19p19s1234567z").win("1m"), {{"kokushi musou 13-sided", 1}}, 32000, 64000},
      {"suuankou", WinOf("111m222p333s44z55z").win("5z").tsumo(), {{"suuankou", 1}}, 32000, 32000},
      {"suuankou tanki", WinOf("111m222p333s4445z").win("5z"), {{"suuankou tanki", 1}}, 32000, 64000},
      {"daisangen", WinOf("555666777z123m4m").win("4m"), {{"daisangen", 1}}, 32000, 32000},
      {"shousuushii", WinOf("111222333z4z123m").win("4z"), {{"shousuushii", 1}}, 32000, 32000},
      {"daisuushii", WinOf("222333444z5m").meld("z111-").win("5m"), {{"daisuushii", 1}}, 32000, 64000},
      {"tsuuiisou (seven pairs)", WinOf("1122334455667z").win("7z"), {{"tsuuiisou", 1}}, 32000, 32000},
      {"ryuuiisou", WinOf("23423466688s66z").win("8s"), {{"ryuuiisou", 1}}, 32000, 32000},
      {"chinroutou", WinOf("999m111p999p1s").meld("m111-").win("1s"), {{"chinroutou", 1}}, 32000, 32000},
      {"chuuren", WinOf("1112345567899m").win("9m"), {{"chuuren poutou", 1}}, 32000, 32000},
      {"junsei chuuren", WinOf("1112345678999m").win("5m"), {{"junsei chuuren poutou", 1}}, 32000, 64000},
      {"suukantsu", WinOf("9s").meld("m2222").meld("p3333-").meld("s4444").meld("z5555=").win("9s"),
       {{"suukantsu", 1}}, 32000, 32000},
      {"tenhou", WinOf("23m567m345p678s22p").win("4m").tsumo().dealer().tenhou(), {{"tenhou", 1}}, 48000, 48000},
      {"chiihou", WinOf("23m567m345p678s22p").win("4m").tsumo().chiihou(), {{"chiihou", 1}}, 32000, 32000},
      // Several yakuman add up: all four winds concealed, won on the pair.
      {"daisuushii + suuankou tanki", WinOf("111222333444z5m").win("5m"),
       {{"suuankou tanki", 1}, {"daisuushii", 1}}, 64000, 128000},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    const auto t = c.win.score("tenhou");
    ASSERT_TRUE(t.is_win());
    EXPECT_EQ(yaku_of(t), c.tenhou);
    EXPECT_EQ(t.limit, Limit::yakuman);
    EXPECT_EQ(t.fu, 0);
    EXPECT_EQ(t.han, 0);
    EXPECT_EQ(t.points, c.tenhou_points);
    EXPECT_EQ(c.win.score("mahjongsoul").points, c.mahjongsoul_points);
  }
}

TEST(Yaku, YakumanWithoutStackingCountsOnce) {
  ScoringRules once = rules_preset("tenhou").scoring;
  once.yakuman_stack = false;
  EXPECT_EQ(WinOf("111222333444z5m").win("5m").score(once).points, 32000);
}

TEST(Yaku, TableHasOneEntryPerYakuWithDistinctIds) {
  std::vector<int> ids;
  for (int y = 0; y < kNumYaku; ++y) {
    const YakuInfo& info = yaku_info(static_cast<Yaku>(y));
    EXPECT_FALSE(info.name.empty());
    EXPECT_EQ(info.yakuman, y >= static_cast<int>(Yaku::kokushi)) << info.name;
    EXPECT_GE(info.han_closed, info.han_open) << info.name;
    ids.push_back(info.mahjongsoul_id);
  }
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
}

}  // namespace
}  // namespace hydra::game
