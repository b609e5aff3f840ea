// Hand-worked fu, han and points, checked against the published scoring table (the standard
// Riichi table: e.g. 30 fu 4 han = 7,700 non-dealer ron, 20 fu 3 han tsumo = 700/1,300).
// Each case's fu is added up by hand in the comment above it.

#include <gtest/gtest.h>

#include "hydra/common/error.hpp"
#include "hydra/game/score.hpp"
#include "test_score_builder.hpp"

namespace hydra::game {
namespace {

using testing::WinOf;
using testing::YakuList;
using testing::yaku_of;

// 234m 567m 345p 678s 22p, 4m completes 23m (ryanmen). Pinfu tsumo: a flat 20 fu.
TEST(Score, PinfuTsumoIs20FuAndPays700And1300) {
  const auto r = WinOf("23m567m345p678s22p").win("4m").tsumo().score();
  ASSERT_TRUE(r.is_win());
  EXPECT_EQ(yaku_of(r), (YakuList{{"menzen tsumo", 1}, {"pinfu", 1}, {"tanyao", 1}}));
  EXPECT_EQ(r.han, 3);
  EXPECT_EQ(r.fu, 20);
  EXPECT_EQ(r.tsumo_from_dealer, 1300);
  EXPECT_EQ(r.tsumo_from_non_dealer, 700);
  EXPECT_EQ(r.points, 2700);
  EXPECT_EQ(r.deltas, (std::array<int, 4>{-1300, 2700, -700, -700}));
}

// Same hand on a ron: pinfu ron is 20 + 10 (closed ron) = 30 fu; 2 han 30 fu = 2,000.
TEST(Score, PinfuRonIs30Fu) {
  const auto r = WinOf("23m567m345p678s22p").win("4m").from(From::kamicha).score();
  ASSERT_TRUE(r.is_win());
  EXPECT_EQ(yaku_of(r), (YakuList{{"pinfu", 1}, {"tanyao", 1}}));
  EXPECT_EQ(r.fu, 30);
  EXPECT_EQ(r.ron_payment, 2000);
  // Seat south's kamicha is east.
  EXPECT_EQ(r.deltas, (std::array<int, 4>{-2000, 2000, 0, 0}));
}

// Chiitoitsu: a flat 25 fu. 2 han 25 fu = 1,600 (dealer 2,400); tsumo 3 han = 800/1,600.
TEST(Score, ChiitoitsuIs25Fu) {
  const auto ron = WinOf("1122m3344p5566s7z").win("7z").score();
  EXPECT_EQ(yaku_of(ron), (YakuList{{"chiitoitsu", 2}}));
  EXPECT_EQ(ron.fu, 25);
  EXPECT_EQ(ron.points, 1600);
  EXPECT_EQ(WinOf("1122m3344p5566s7z").win("7z").dealer().score().points, 2400);
  const auto tsumo = WinOf("1122m3344p5566s7z").win("7z").tsumo().score();
  EXPECT_EQ(tsumo.han, 3);
  EXPECT_EQ(tsumo.fu, 25);
  EXPECT_EQ(tsumo.tsumo_from_non_dealer, 800);
  EXPECT_EQ(tsumo.tsumo_from_dealer, 1600);
}

// 13m + 2m kanchan, 456p, 789s, EEE concealed, SS pair (seat west, round east: no fu).
// 20 + 10 closed ron + 2 kanchan + 8 concealed honour triplet = 40 fu; round wind 1 han = 1,300.
TEST(Score, KanchanAndConcealedHonourTriplet) {
  const auto r = WinOf("13m456p789s11122z").win("2m").seat(Wind::west).score();
  EXPECT_EQ(yaku_of(r), (YakuList{{"round wind", 1}}));
  EXPECT_EQ(r.fu, 40);
  EXPECT_EQ(r.points, 1300);
}

// Open tanyao with nothing else: 20 fu, raised to 30 for an open hand. 1 han 30 fu = 1,000.
// Without kuitan the same hand has no yaku.
TEST(Score, OpenPinfuShapeIs30FuAndKuitanIsRuleData) {
  const auto r = WinOf("567p678s34s55p").meld("m2-34").win("5s").score();
  EXPECT_EQ(yaku_of(r), (YakuList{{"tanyao", 1}}));
  EXPECT_EQ(r.fu, 30);
  EXPECT_EQ(r.points, 1000);
  ScoringRules no_kuitan = rules_preset("tenhou").scoring;
  no_kuitan.kuitan = false;
  EXPECT_EQ(WinOf("567p678s34s55p").meld("m2-34").win("5s").score(no_kuitan).status, WinStatus::no_yaku);
}

// Dealer, east round, EE pair (double wind), 222m concealed, 13s + 2s kanchan, tsumo, riichi.
// 20 + 2 tsumo + 4 (222m) + 2 kanchan + 4 double-wind pair = 32 -> 40 fu: 2 han 40 fu dealer
// tsumo = 1,300 all. Where a double-wind pair is 2 fu: 30 -> 30 fu = 1,000 all.
TEST(Score, DoubleWindPairFuIsRuleData) {
  const auto win = WinOf("222m456p789s13s11z").win("2s").tsumo().dealer().riichi();
  const auto r = win.score();
  EXPECT_EQ(yaku_of(r), (YakuList{{"riichi", 1}, {"menzen tsumo", 1}}));
  EXPECT_EQ(r.fu, 40);
  EXPECT_EQ(r.tsumo_from_non_dealer, 1300);
  EXPECT_EQ(r.points, 3900);
  ScoringRules two = rules_preset("tenhou").scoring;
  two.double_wind_pair_fu = 2;
  const auto r2 = win.score(two);
  EXPECT_EQ(r2.fu, 30);
  EXPECT_EQ(r2.tsumo_from_non_dealer, 1000);
}

// Ankan of east (round south, seat south: not a yakuhai), 999m concealed, 123p, 456s, chun tanki.
// Ron:   20 + 10 + 32 (honour ankan) + 8 (999m) + 2 (dragon pair) + 2 (tanki) = 74 -> 80 fu;
//        riichi 1 han 80 fu = 2,600.
// Tsumo: 20 + 2 + 32 + 8 + 2 + 2 = 66 -> 70 fu; 2 han 70 fu = 1,200/2,300.
TEST(Score, KansAndRounding) {
  const auto base = WinOf("999m123p456s7z").meld("z1111").win("7z").round(Wind::south).riichi();
  const auto ron = base.score();
  EXPECT_EQ(yaku_of(ron), (YakuList{{"riichi", 1}}));
  EXPECT_EQ(ron.fu, 80);
  EXPECT_EQ(ron.points, 2600);
  auto t = base;
  const auto tsumo = t.tsumo().score();
  EXPECT_EQ(tsumo.fu, 70);
  EXPECT_EQ(tsumo.han, 2);
  EXPECT_EQ(tsumo.tsumo_from_non_dealer, 1200);
  EXPECT_EQ(tsumo.tsumo_from_dealer, 2300);
}

// Open haku pon, 1s tanki: 20 + 4 (open honour triplet) + 2 (tanki) = 26 -> 30 fu; tsumo adds 2:
// 28 -> 30. 1 han 30 fu: ron 1,000; tsumo 300/500.
TEST(Score, OpenHonourTripletAndTanki) {
  const auto ron = WinOf("234m567p789s1s").meld("z555=").win("1s").score();
  EXPECT_EQ(yaku_of(ron), (YakuList{{"yakuhai haku", 1}}));
  EXPECT_EQ(ron.fu, 30);
  EXPECT_EQ(ron.points, 1000);
  const auto tsumo = WinOf("234m567p789s1s").meld("z555=").win("1s").tsumo().score();
  EXPECT_EQ(tsumo.fu, 30);
  EXPECT_EQ(tsumo.tsumo_from_non_dealer, 300);
  EXPECT_EQ(tsumo.tsumo_from_dealer, 500);
}

// 30 fu 4 han = 7,700 under Tenhou (no kiriage); 8,000 where kiriage mangan applies.
TEST(Score, ThirtyFuFourHanAndKiriage) {
  const auto win = WinOf("23m567m345p678s22p").win("4m").riichi().ippatsu();
  const auto r = win.score();
  EXPECT_EQ(r.han, 4);
  EXPECT_EQ(r.fu, 30);
  EXPECT_EQ(r.points, 7700);
  EXPECT_EQ(r.limit, Limit::none);
  ScoringRules kiriage = rules_preset("tenhou").scoring;
  kiriage.kiriage_mangan = true;
  EXPECT_EQ(win.score(kiriage).points, 8000);
  EXPECT_EQ(win.score(kiriage).limit, Limit::mangan);
}

// Limits: 5 han mangan 2,000/4,000; 4 han 40 fu is over 2,000 basic points: mangan 8,000;
// 6 han haneman 3,000/6,000; dealer haneman ron 18,000.
TEST(Score, Limits) {
  const auto mangan = WinOf("23m567m345p678s22p").win("4m").tsumo().riichi().dora("1m").score();
  EXPECT_EQ(mangan.han, 5);
  EXPECT_EQ(mangan.limit, Limit::mangan);
  EXPECT_EQ(mangan.points, 8000);
  const auto by_fu = WinOf("13m456p789s11122z").win("2m").seat(Wind::west).riichi().ippatsu().dora("9m").score();
  EXPECT_EQ(by_fu.han, 4);
  EXPECT_EQ(by_fu.fu, 40);
  EXPECT_EQ(by_fu.limit, Limit::mangan);
  EXPECT_EQ(by_fu.points, 8000);
  const auto haneman = WinOf("23m567m345p678s22p").win("4m").tsumo().riichi().ippatsu().dora("1m").score();
  EXPECT_EQ(haneman.han, 6);
  EXPECT_EQ(haneman.limit, Limit::haneman);
  EXPECT_EQ(haneman.tsumo_from_non_dealer, 3000);
  EXPECT_EQ(haneman.tsumo_from_dealer, 6000);
  const auto dealer = WinOf("23m567m345p678s22p").win("4m").dealer().riichi().ippatsu().dora("1m1p").score();
  EXPECT_EQ(dealer.han, 7);
  EXPECT_EQ(dealer.points, 18000);
}

// The basic-points table: fu * 2^(han+2) below the limits, then the limits by han.
TEST(Score, BasePointsTable) {
  const ScoringRules& tenhou = rules_preset("tenhou").scoring;
  Limit l{};
  EXPECT_EQ(base_points(1, 30, tenhou, &l), 240);
  EXPECT_EQ(base_points(3, 60, tenhou, &l), 1920);
  EXPECT_EQ(l, Limit::none);
  EXPECT_EQ(base_points(3, 70, tenhou, &l), 2000);
  EXPECT_EQ(l, Limit::mangan);
  EXPECT_EQ(base_points(7, 30, tenhou, &l), 3000);
  EXPECT_EQ(l, Limit::haneman);
  EXPECT_EQ(base_points(10, 30, tenhou, &l), 4000);
  EXPECT_EQ(l, Limit::baiman);
  EXPECT_EQ(base_points(12, 30, tenhou, &l), 6000);
  EXPECT_EQ(l, Limit::sanbaiman);
  EXPECT_EQ(base_points(13, 30, tenhou, &l), 8000);
  EXPECT_EQ(l, Limit::kazoe_yakuman);
  ScoringRules no_kazoe = tenhou;
  no_kazoe.kazoe_yakuman = false;
  EXPECT_EQ(base_points(15, 30, no_kazoe, &l), 6000);
  EXPECT_EQ(l, Limit::sanbaiman);
}

// Honba: 300 per honba on a ron (from the discarder), 100 from each payer on a tsumo. Riichi
// sticks: 1,000 each to the winner.
TEST(Score, HonbaAndRiichiSticks) {
  const auto ron = WinOf("23m567m345p678s22p").win("4m").from(From::toimen).honba(2).sticks(1).score();
  EXPECT_EQ(ron.points, 2000);
  // South's toimen is north.
  EXPECT_EQ(ron.deltas, (std::array<int, 4>{0, 2000 + 600 + 1000, 0, -2600}));
  const auto tsumo = WinOf("23m567m345p678s22p").win("4m").tsumo().honba(1).sticks(2).score();
  EXPECT_EQ(tsumo.points, 2700);
  EXPECT_EQ(tsumo.deltas, (std::array<int, 4>{-1400, 2700 + 300 + 2000, -800, -800}));
}

// Several decompositions: 111m 222m 333m as three concealed triplets (sanankou, 40 fu) beats
// 123m x3 (iipeikou, penchan, 30 fu). Tsumo: 3 han 40 fu = 1,300/2,600 against 2 han 30 fu.
TEST(Score, BestInterpretationWins) {
  const auto r = WinOf("11122233m456p99s").win("3m").tsumo().score();
  EXPECT_EQ(yaku_of(r), (YakuList{{"menzen tsumo", 1}, {"sanankou", 2}}));
  EXPECT_EQ(r.fu, 40);
  EXPECT_EQ(r.points, 5200);
}

// Ryanpeikou (3 han, tanki 40 fu = 5,200) beats reading the same tiles as chiitoitsu (1,600).
TEST(Score, RyanpeikouBeatsChiitoitsu) {
  const auto r = WinOf("223344m556677p9s").win("9s").score();
  EXPECT_EQ(yaku_of(r), (YakuList{{"ryanpeikou", 3}}));
  EXPECT_EQ(r.fu, 40);
  EXPECT_EQ(r.points, 5200);
}

// A shanpon completed by a ron is an open triplet: 222m 444p 666s concealed, 777z by ron, 99s.
// 20 + 10 + 3*4 + 4 (open dragon triplet) = 46 -> 50 fu; chun 1 + toitoi 2 + sanankou 2 (the
// three concealed ones) = 5 han: mangan. On a tsumo all four are concealed: suuankou.
TEST(Score, RonShanponTripletIsOpen) {
  const auto ron = WinOf("222m444p666s99s77z").win("7z").score();
  EXPECT_EQ(yaku_of(ron), (YakuList{{"yakuhai chun", 1}, {"toitoi", 2}, {"sanankou", 2}}));
  EXPECT_EQ(ron.fu, 50);
  EXPECT_EQ(ron.points, 8000);
  const auto tsumo = WinOf("222m444p666s99s77z").win("7z").tsumo().score();
  EXPECT_EQ(yaku_of(tsumo), (YakuList{{"suuankou", 1}}));
  EXPECT_EQ(tsumo.points, 32000);
}

// 234m 444p 666s 99s, chun shanpon won by ron: sanankou is lost (only two concealed triplets).
// 20 + 10 + 4 + 4 + 4 (open dragon triplet) = 42 -> 50 fu; 1 han 50 fu = 1,600.
TEST(Score, RonShanponLosesAnAnkou) {
  const auto r = WinOf("234m444p666s99s77z").win("7z").score();
  EXPECT_EQ(yaku_of(r), (YakuList{{"yakuhai chun", 1}}));
  EXPECT_EQ(r.fu, 50);
  EXPECT_EQ(r.points, 1600);
}

// No yaku: a closed ron with nothing but dora is not a win.
TEST(Score, DoraAloneIsNoWin) {
  const auto r = WinOf("234m456p789s1199s").win("1s").dora("1s").score();
  EXPECT_EQ(r.status, WinStatus::no_yaku);
  EXPECT_EQ(WinOf("234m456p789s1357s").win("9s").score().status, WinStatus::not_complete);
}

// Nagashi mangan: a mangan tsumo's payments.
TEST(Score, NagashiMangan) {
  EXPECT_EQ(nagashi_mangan_deltas(Wind::west), (std::array<int, 4>{-4000, -2000, 8000, -2000}));
  EXPECT_EQ(nagashi_mangan_deltas(Wind::east), (std::array<int, 4>{12000, -4000, -4000, -4000}));
}

TEST(Score, ImpossibleSituationsAreUserErrors) {
  EXPECT_THROW(WinOf("567p678s34s55p").meld("m2-34").win("5s").riichi().score(), Error);
  EXPECT_THROW(WinOf("23m567m345p678s22p").win("4m").ippatsu().score(), Error);
  EXPECT_THROW(WinOf("23m567m345p678s22p").win("4m").haitei().score(), Error);
  EXPECT_THROW(WinOf("23m567m345p678s22p").win("4m").tsumo().houtei().score(), Error);
  EXPECT_THROW(WinOf("23m567m345p678s22p").win("4m").tsumo().rinshan().score(), Error);
  EXPECT_THROW(WinOf("23m567m345p678s22p").win("4m").tsumo().tenhou().score(), Error);  // not the dealer
}

}  // namespace
}  // namespace hydra::game
