// Golden observations from real Tenhou games (HYDRA_TESTDATA/mjai). Every expected value was
// worked out by hand from the log (hands, rivers, melds, riichi, scores), not by running the
// encoder. A state is (file, event index = 0-based line of the .json.gz, observing seat), taken
// after that event; the test first checks the event's type so a shifted index cannot pass.
// Tile indices: 0-8 1-9m, 9-17 1-9p, 18-26 1-9s, 27-33 E S W N P F C.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "hydra/data/mjai.hpp"
#include "hydra/encoder/encoder.hpp"
#include "testdata.hpp"
#include "hydra/common/index.hpp"

namespace hydra::encoder {
namespace {

using game::Seat;

constexpr const char* kGameA = "2019021004gm-00a9-0000-e2f6516d.json.gz";
constexpr const char* kGameB = "2010081709gm-00a9-0000-fe3371ad.json.gz";

class Golden : public ::testing::Test {
 protected:
  // The observation of `seat` after event `index` of `file` (which must be of type `type`).
  Obs state(const char* file, int index, int seat, const char* type) {
    const auto root = hydra::testing::testdata_dir();
    if (!root) return {};
    auto it = logs_.find(file);
    if (it == logs_.end()) it = logs_.emplace(file, data::read_mjai(*root / "mjai" / file).events).first;
    const auto& events = it->second;
    EXPECT_LT(index, static_cast<int>(events.size()));
    EXPECT_EQ(game::to_string(events[ix(index)].type), type) << file << " event " << index;
    Observer o(Seat(seat), game::table_rules("tenhou"));
    for (int i = 0; i <= index; ++i) o.apply(events[ix(i)]);
    return o.encode();
  }

  void SetUp() override {
    if (!hydra::testing::testdata_dir() || !std::filesystem::exists(*hydra::testing::testdata_dir() / "mjai"))
      GTEST_SKIP() << "HYDRA_TESTDATA/mjai not found: real-data test skipped";
  }

  std::map<std::string, std::vector<game::Event>> logs_;
};

// Plane `c` is exactly `values` at the listed tiles and 0 elsewhere.
void expect_plane(const Obs& o, int c, const std::vector<std::pair<int, float>>& values) {
  std::array<float, kTiles> want{};
  for (auto [t, v] : values) want[ix(t)] = v;
  for (int t = 0; t < kTiles; ++t) EXPECT_NEAR(o.at(c, t), want[ix(t)], 1e-6) << "channel " << c << " tile " << t;
}
// Plane `c` is 1 at the listed tiles and 0 elsewhere.
void expect_ones(const Obs& o, int c, const std::vector<int>& tiles) {
  std::array<float, kTiles> want{};
  for (int t : tiles) want[ix(t)] = 1.0F;
  for (int t = 0; t < kTiles; ++t) EXPECT_EQ(o.at(c, t), want[ix(t)]) << "channel " << c << " tile " << t;
}
void expect_whole(const Obs& o, int c, double value) {
  for (int t = 0; t < kTiles; ++t) EXPECT_NEAR(o.at(c, t), value, 1e-6) << "channel " << c << " tile " << t;
}
void expect_zero(const Obs& o, int first, int count = 1) {
  for (int c = first; c < first + count; ++c) expect_ones(o, c, {});
}

// Game A, E1, event 80: seat 0 draws the red 5m. Hand 22 33 44 0m (red 5m) 135p 6778s.
// Rivers so far (event index): seat 0 W C P E 7p 9m 8m 6m 1m, all from the hand; seat 1 1p 9s
// 1m 1s(t) C P(t) 1p(t) N; seat 2 7s 6s(t) 4p P C 9p(t) 3m S(t) 1m(t) 4p(t) 1m(t) with pons
// of E, 5m, W; seat 3 chi 456s. Dora indicator 3s.
TEST_F(Golden, A_E1_80_OwnDrawRed5m) {
  const Obs o = state(kGameA, 80, 0, "tsumo");
  expect_ones(o, 0, {1, 2, 3, 4, 9, 11, 13, 23, 24, 25});
  expect_ones(o, 1, {1, 2, 3, 24});
  expect_zero(o, 2, 2);
  expect_ones(o, ch::kDrawn, {4});
  expect_whole(o, ch::kRed, 1.0);
  expect_whole(o, ch::kRed + 1, 0.0);
  // Shanten 1 (234m 234m 678s + 35p); discarding 2m, 5m, 1p, 5p or 7s keeps 1, the others give 2.
  expect_ones(o, ch::kEfficient, {1, 4, 9, 13, 24});
  expect_zero(o, ch::kProgress);  // 1 before the draw (22 33 44m 135p 6778s), still 1 at best
  expect_whole(o, ch::kShanten + 1, 1.0);
  expect_whole(o, ch::kShanten + 0, 0.0);
  // Own river: 9 tedashi, the last (1m) age 0, the first (W) age 8.
  expect_ones(o, 11, {0, 5, 7, 8, 15, 27, 29, 31, 33});
  expect_ones(o, 12, {0, 5, 7, 8, 15, 27, 29, 31, 33});
  EXPECT_NEAR(o.at(13, 0), 1.0, 1e-6);
  EXPECT_NEAR(o.at(13, 29), std::exp(-1.6), 1e-6);
  // Shimocha (seat 1): 1s and P only tsumogiri; 1p last discarded at age 1.
  expect_ones(o, 14, {0, 9, 18, 26, 30, 31, 33});
  expect_ones(o, 15, {0, 9, 26, 30, 33});
  EXPECT_NEAR(o.at(16, 9), std::exp(-0.2), 1e-6);
  // Melds: toimen's three pons (3/4 each), kamicha's chi 456s (1/4 each).
  expect_plane(o, 23 + 3 * 2 + 1, {{27, 0.75F}, {4, 0.75F}, {29, 0.75F}});
  expect_plane(o, 23 + 3 * 3 + 0, {{21, 0.25F}, {22, 0.25F}, {23, 0.25F}});
  expect_ones(o, ch::kDora, {20});
  expect_zero(o, ch::kDora + 1, 4);
  // Toimen (seat 2): genbutsu = its river; tedashi 7s 4p P C 3m, and the 1m right after its pon
  // of W (event 77: the log flags it tsumogiri, but nothing was drawn, so it left the hand).
  expect_ones(o, ch::kGenbutsu + 1, {0, 2, 12, 17, 23, 24, 28, 31, 33});
  expect_ones(o, ch::kTedashiSafe + 1, {0, 2, 12, 24, 31, 33});
  // Suji against it: 1p (4p), 7p (4p), 3s (6s), 9s (6s) full; 4m (1m), 6m (3m), 6p (9p), 4s (7s) half.
  expect_plane(o, ch::kSuji + 1, {{9, 1}, {15, 1}, {20, 1}, {26, 1}, {3, 0.5F}, {5, 0.5F}, {14, 0.5F}, {21, 0.5F}});
  expect_ones(o, ch::kHalfSuji + 1, {3, 5, 14, 21});
  // No 4-visible neighbour blocks every side of a tile; 3 visible 3m (own two, seat 2's) make 2m
  // and (with all four 5m: own red, seat 2's pon) 4m one-chance; 6m x3 gives 7m, 7s x3 gives 8s.
  expect_zero(o, ch::kKabe);
  expect_ones(o, ch::kOneChance, {1, 3, 6, 25});
  expect_zero(o, ch::kRiichiSafe, 3);
  expect_whole(o, ch::kScore, 0.25);
  expect_whole(o, ch::kRound, 0.0);
}

// Game A, E2, event 187: seat 2's C after seat 1's riichi (event 141, declaration tile 1p at
// 142) and seat 3's riichi (179, 4m at 180). Observer seat 0, hand 556 8m 11 22 33 7p 0s 7s.
TEST_F(Golden, A_E2_187_TwoRiichi) {
  const Obs o = state(kGameA, 187, 0, "dahai");
  expect_ones(o, 0, {4, 5, 7, 9, 10, 11, 15, 22, 24});
  expect_ones(o, 1, {4, 9, 10, 11});
  expect_whole(o, ch::kRed + 2, 1.0);
  expect_whole(o, ch::kShanten + 1, 1.0);  // 123p 123p 55m + 68m, 57s
  expect_zero(o, ch::kDrawn);
  expect_zero(o, ch::kEfficient, 2);
  // Passed after seat 1's declaration tile: P 9m 1s 1p C (seat 2), W 7s 2p 4m (seat 3),
  // 9m N W S 9s (seat 0), F 6s W 6s 8s (seat 1 itself).
  const std::vector<int> passed1 = {3, 8, 9, 10, 18, 23, 24, 25, 26, 28, 29, 30, 31, 32, 33};
  expect_ones(o, ch::kRiichiSafe + 0, passed1);
  expect_zero(o, ch::kRiichiSafe + 1);
  expect_ones(o, ch::kRiichiSafe + 2, {25, 26, 33});  // after 4m: 9s, 8s, C
  expect_ones(o, ch::kGenbutsu + 0, {3, 8, 9, 10, 17, 18, 21, 23, 24, 25, 26, 28, 29, 30, 31, 32, 33});
  expect_ones(o, ch::kTedashiSafe + 0, {9, 29});
  expect_plane(o, ch::kSuji + 0, {{0, 1}, {6, 1}, {18, 1}, {20, 1}, {21, 1}, {24, 1}, {26, 1}, {5, 0.5F},
                                  {12, 0.5F}, {13, 0.5F}, {14, 0.5F}, {22, 0.5F}, {23, 0.5F}});
  expect_ones(o, ch::kHalfSuji + 0, {5, 12, 13, 14, 22, 23});
  // Seat 1's only suited tedashi is 1p, 5 of its discards ago: 3p (2p is genbutsu).
  expect_plane(o, ch::kMatagi + 0, {{11, static_cast<float>(std::exp(-1.0))}});
  // Seat 3's tedashi 8m (age 6), 9m (5), 2p (1), 4m (0) around non-genbutsu tiles.
  const auto e = [](double a) { return static_cast<float>(std::exp(-0.2 * a)); };
  expect_plane(o, ch::kMatagi + 2, {{1, 1}, {2, 1}, {4, 1}, {5, 1}, {6, e(5)}, {9, e(1)}, {11, e(1)}, {12, e(1)}});
  expect_ones(o, ch::kKabe, {9});  // 1p: all four 2p visible (own two, seat 3's two)
  expect_zero(o, ch::kOneChance);
  expect_whole(o, ch::kTenpai + 0, 1.0);
  expect_whole(o, ch::kTenpai + 1, 0.25 * 10 / 18);  // seat 2: closed, 10 discards
  expect_whole(o, ch::kTenpai + 2, 1.0);
  expect_whole(o, ch::kRiichi + 0, 0.0);
  expect_whole(o, ch::kRiichi + 1, 1.0);
  expect_whole(o, ch::kRiichi + 3, 1.0);
  expect_whole(o, ch::kScore + 0, 0.19);
  expect_whole(o, ch::kScore + 2, 0.37);
  expect_whole(o, ch::kScoreDiff + 2, (19000.0 - 37000.0) / 30000.0);
  expect_whole(o, ch::kRound, 1.0 / 8);
  expect_whole(o, ch::kSticks, 0.2);
}

// Game A, S1, event 596: seat 3's rinshan draw 6p after its ankan of 7p (594) and the new
// indicator 5s (595). Hand 789 9m 1234 6p 4 0s.
TEST_F(Golden, A_S1_596_RinshanAfterAnkan) {
  const Obs o = state(kGameA, 596, 3, "tsumo");
  expect_ones(o, 0, {6, 7, 8, 9, 10, 11, 12, 14, 21, 22});
  expect_ones(o, 1, {8});
  for (int k = 0; k < 4; ++k) expect_ones(o, ch::kOwnMelds + k, {15});
  expect_ones(o, ch::kDrawn, {14});
  expect_plane(o, 23 + 2, {{15, 1.0F}});  // own kan
  expect_ones(o, ch::kDora, {20, 22});
  expect_zero(o, ch::kDora + 1);
  expect_whole(o, ch::kRed + 0, 0.0);  // its red 5m is in its river
  expect_whole(o, ch::kRed + 2, 1.0);
  expect_whole(o, ch::kShanten + 1, 1.0);
  // Others' melds from seat 3: seat 0 chi 678s, seat 1 pons S and 8p, seat 2 chi 234s.
  expect_plane(o, 23 + 3, {{23, 0.25F}, {24, 0.25F}, {25, 0.25F}});
  expect_plane(o, 23 + 7, {{28, 0.75F}, {16, 0.75F}});
  expect_plane(o, 23 + 9, {{19, 0.25F}, {20, 0.25F}, {21, 0.25F}});
  // Four visible: 2p (seat 0 x2, seat 2, own), 7p (ankan), 8p (pon + two discards), 7s; three:
  // 3s, 5s, 8s.
  expect_ones(o, ch::kKabe, {9, 16, 17, 25});
  expect_ones(o, ch::kOneChance, {19, 21, 23, 26});
  expect_whole(o, ch::kScore, 0.39);
  expect_whole(o, ch::kScore + 1, 0.14);
  expect_whole(o, ch::kScoreDiff + 1, 25000.0 / 30000.0);
  expect_whole(o, ch::kScoreDiff + 3, 7000.0 / 30000.0);
  expect_whole(o, ch::kRound, 0.5);
}

// The same moment from seat 0: its own chi 678s, seat 3's ankan seen as a kan of the kamicha.
TEST_F(Golden, A_S1_596_OthersAnkan) {
  const Obs o = state(kGameA, 596, 0, "tsumo");
  expect_ones(o, 0, {0, 1, 5, 7, 9, 18, 20});
  expect_ones(o, 1, {5, 7});
  expect_ones(o, 2, {5});
  expect_ones(o, ch::kOwnMelds, {23, 24, 25});
  expect_zero(o, ch::kOwnMelds + 1);
  expect_plane(o, 23, {{23, 0.25F}, {24, 0.25F}, {25, 0.25F}});
  expect_plane(o, 23 + 9 + 2, {{15, 1.0F}});
  expect_zero(o, ch::kDrawn);
  expect_whole(o, ch::kShanten + 1, 1.0);  // 666m 88m 12m 13s + chi
  expect_ones(o, ch::kDora, {20, 22});
}

// Game A, E1, event 1: the deal; seat 1 holds 1m 1p 4p 77p 8p 5s 0s 66s 9s N C.
TEST_F(Golden, A_E1_1_Deal) {
  const Obs o = state(kGameA, 1, 1, "start_kyoku");
  expect_ones(o, 0, {0, 9, 12, 15, 16, 22, 23, 26, 30, 33});
  expect_ones(o, 1, {15, 22, 23});
  expect_zero(o, 2, 2);
  expect_whole(o, ch::kRed + 2, 1.0);
  expect_whole(o, ch::kShanten + 3, 1.0);  // chiitoitsu 3 (77p 55s 66s), normal 5
  expect_zero(o, ch::kRiver, 12);
  expect_zero(o, ch::kMelds, 12);
  expect_ones(o, ch::kDora, {20});
  expect_zero(o, ch::kGenbutsu, 20);
  expect_zero(o, ch::kTenpai, 3);
  expect_whole(o, ch::kScore + 3, 0.25);
}

// Game A, event 105: seat 2's tsumo (E1) pays 6000/3000/3000: scores 19000 22000 37000 22000.
TEST_F(Golden, A_E1_105_ScoresAfterTsumo) {
  const Obs o = state(kGameA, 105, 0, "hora");
  expect_whole(o, ch::kScore + 0, 0.19);
  expect_whole(o, ch::kScore + 1, 0.22);
  expect_whole(o, ch::kScore + 2, 0.37);
  expect_whole(o, ch::kScore + 3, 0.22);
  expect_whole(o, ch::kScoreDiff + 0, 0.0);
  expect_whole(o, ch::kScoreDiff + 1, -0.1);
  expect_whole(o, ch::kScoreDiff + 2, -0.6);
}

// Game A, event 141: seat 1 declares riichi after drawing 4m (140); the stick is not down yet.
TEST_F(Golden, A_E2_141_OwnRiichiDeclared) {
  const Obs o = state(kGameA, 141, 1, "reach");
  expect_whole(o, ch::kRiichi + 0, 1.0);
  expect_zero(o, ch::kRiichi + 1, 3);
  expect_ones(o, ch::kDrawn, {3});
  expect_whole(o, ch::kScore + 0, 0.22);
  expect_whole(o, ch::kScore + 3, 0.19);
  expect_whole(o, ch::kSticks, 0.0);
}

// Event 142: the declaration tile 1p is genbutsu against seat 1 but not a tile passed after
// its riichi; seat 0 sees the shimocha's riichi and a tenpai signal of 1.
TEST_F(Golden, A_E2_142_DeclarationTile) {
  const Obs o = state(kGameA, 142, 0, "dahai");
  expect_ones(o, ch::kGenbutsu + 0, {9, 17, 21, 31, 29});  // W 9p 4s P 1p
  expect_zero(o, ch::kRiichiSafe);
  expect_whole(o, ch::kRiichi + 1, 1.0);
  expect_whole(o, ch::kTenpai + 0, 1.0);
}

// Event 145: seat 2's tsumogiri P is the first tile passed after seat 1's riichi; one stick.
TEST_F(Golden, A_E2_145_FirstPassedTile) {
  const Obs o = state(kGameA, 145, 0, "dahai");
  expect_ones(o, ch::kRiichiSafe + 0, {31});
  expect_whole(o, ch::kSticks, 0.1);
  expect_whole(o, ch::kScore + 1, 0.21);
}

// Game A, S2 (event 622, one honba after the S1 draw, no sticks). Seat 0's deal
// 2m 4m 6m 6p 88p 9p 2s 3s 4s 9s S C; indicator 8p.
TEST_F(Golden, A_S2_622_DealWithHonba) {
  const Obs o = state(kGameA, 622, 0, "start_kyoku");
  expect_ones(o, 0, {1, 3, 5, 14, 16, 17, 19, 20, 21, 26, 28, 33});
  expect_ones(o, 1, {16});
  expect_ones(o, ch::kDora, {16});
  expect_whole(o, ch::kRound, 5.0 / 8);
  expect_whole(o, ch::kHonba, 0.1);
  expect_whole(o, ch::kSticks, 0.0);
  expect_whole(o, ch::kScore + 0, 0.13);  // after the S1 noten payments
  expect_zero(o, ch::kRed, 3);
}

// Game A, S3 one honba (event 825), seat 2 the dealer: 12200 7900 37900 42000, indicator W.
TEST_F(Golden, A_S3_825_DealerView) {
  const Obs o = state(kGameA, 825, 2, "start_kyoku");
  expect_whole(o, ch::kScore + 0, 0.379);
  expect_whole(o, ch::kScore + 1, 0.42);
  expect_whole(o, ch::kScore + 2, 0.122);
  expect_whole(o, ch::kScore + 3, 0.079);
  expect_whole(o, ch::kScoreDiff + 1, (37900.0 - 42000.0) / 30000.0);
  expect_whole(o, ch::kScoreDiff + 3, 1.0);
  expect_whole(o, ch::kRound, 0.75);
  expect_whole(o, ch::kHonba, 0.1);
  expect_ones(o, ch::kDora, {29});
}

// Game A, S3 two honba (event 886): seat 0's riichi stick went to seat 2's ron at 884.
TEST_F(Golden, A_S3_886_SticksCollected) {
  const Obs o = state(kGameA, 886, 2, "start_kyoku");
  expect_ones(o, 0, {5, 9, 10, 18, 22, 24, 25, 27, 29});
  expect_ones(o, 1, {18, 24, 27, 29});
  expect_whole(o, ch::kHonba, 0.2);
  expect_whole(o, ch::kSticks, 0.0);
  expect_whole(o, ch::kScore + 0, 0.407);
  expect_whole(o, ch::kScore + 2, 0.112);
  expect_ones(o, ch::kDora, {7});
}

// Game A, S3 two honba, event 938: the indicator 5s after seat 2's kakan of 7s (936). Seat 0
// has chi 234m and pon 111m and holds 3m 89m NN P F.
TEST_F(Golden, A_S3_938_KakanAndKanDora) {
  const Obs o = state(kGameA, 938, 0, "dora");
  expect_ones(o, ch::kDora, {7, 22});
  expect_plane(o, 23 + 6 + 2, {{24, 1.0F}});  // toimen's kakan is a kan now
  expect_zero(o, 23 + 6 + 1);
  expect_plane(o, 23 + 0, {{1, 0.25F}, {2, 0.25F}, {3, 0.25F}});
  expect_plane(o, 23 + 1, {{0, 0.75F}});
  expect_plane(o, 23 + 3 + 1, {{26, 0.75F}});
  expect_ones(o, ch::kOwnMelds, {0, 1, 2, 3});
  expect_ones(o, ch::kOwnMelds + 1, {0});
  expect_ones(o, ch::kOwnMelds + 2, {0});
  expect_zero(o, ch::kOwnMelds + 3);
  expect_ones(o, 0, {2, 7, 8, 30, 31, 32});
  expect_ones(o, 1, {30});
  expect_whole(o, ch::kShanten + 2, 1.0);  // NN + 89m + a third block from 3m P F
  expect_ones(o, ch::kKabe, {25});          // 8s: all four 7s in the kan
  expect_zero(o, ch::kOneChance);
  expect_whole(o, ch::kTenpai + 0, 0.5 * 6 / 18);   // seat 1: pon, 6 discards
  expect_whole(o, ch::kTenpai + 1, 0.5 * 7 / 18);   // seat 2: one open meld, 7 discards
  expect_whole(o, ch::kTenpai + 2, 0.25 * 6 / 18);  // seat 3: closed, 6 discards
}

// Game A, S4 (event 978), the dealer seat 3 is dealt red 5p and red 5s.
TEST_F(Golden, A_S4_978_TwoRedFives) {
  const Obs o = state(kGameA, 978, 3, "start_kyoku");
  expect_ones(o, 0, {0, 1, 4, 11, 12, 13, 16, 19, 20, 22, 30, 31});
  expect_ones(o, 1, {22});
  expect_whole(o, ch::kRed + 0, 0.0);
  expect_whole(o, ch::kRed + 1, 1.0);
  expect_whole(o, ch::kRed + 2, 1.0);
  expect_whole(o, ch::kRound, 7.0 / 8);
  expect_ones(o, ch::kDora, {14});
}

// Game A, event 620: exhaustive draw in S1, only seat 1 tenpai: 13000 18000 31000 38000.
TEST_F(Golden, A_S1_620_NotenPayments) {
  const Obs o = state(kGameA, 620, 1, "ryukyoku");
  expect_whole(o, ch::kScore + 0, 0.18);
  expect_whole(o, ch::kScore + 1, 0.31);
  expect_whole(o, ch::kScore + 2, 0.38);
  expect_whole(o, ch::kScore + 3, 0.13);
  expect_whole(o, ch::kScoreDiff + 1, -13000.0 / 30000.0);
  expect_whole(o, ch::kScoreDiff + 3, 5000.0 / 30000.0);
}

// Game A, event 181: both riichi sticks down; seat 2 sees seat 3 (shimocha) and seat 1
// (kamicha) in riichi.
TEST_F(Golden, A_E2_181_TwoSticks) {
  const Obs o = state(kGameA, 181, 2, "reach_accepted");
  expect_whole(o, ch::kRiichi + 0, 0.0);
  expect_whole(o, ch::kRiichi + 1, 1.0);
  expect_whole(o, ch::kRiichi + 2, 0.0);
  expect_whole(o, ch::kRiichi + 3, 1.0);
  expect_whole(o, ch::kSticks, 0.2);
  expect_whole(o, ch::kScore + 1, 0.21);
  // Nothing passed seat 3's declaration tile (4m at 180) yet.
  expect_zero(o, ch::kRiichiSafe + 0);
}

// Game B, E1, event 1: seat 3's deal 22m 7m 9m 8p 4s 0s 7s 9s NN P C, indicator 6m.
TEST_F(Golden, B_E1_1_Deal) {
  const Obs o = state(kGameB, 1, 3, "start_kyoku");
  expect_ones(o, 0, {1, 6, 8, 16, 21, 22, 24, 26, 30, 31, 33});
  expect_ones(o, 1, {1, 30});
  expect_whole(o, ch::kRed + 2, 1.0);
  expect_ones(o, ch::kDora, {5});
  expect_zero(o, ch::kDrawn);
}

// Game B, event 109: seat 2's own riichi accepted: its stick is on the table.
TEST_F(Golden, B_E1_109_OwnStick) {
  const Obs o = state(kGameB, 109, 2, "reach_accepted");
  expect_whole(o, ch::kRiichi + 0, 1.0);
  expect_whole(o, ch::kScore + 0, 0.24);
  expect_whole(o, ch::kScoreDiff + 1, -1000.0 / 30000.0);
  expect_whole(o, ch::kSticks, 0.1);
}

// Game B, E1, event 118: seat 2 (toimen of seat 0) in riichi since 107 (4p at 108); passed
// since: 2s (seat 3), W (seat 0), 8m (seat 1), 8s (seat 2). Seat 1 has pons W, S and chi 345m,
// seat 3 pon N and chi 4 0 6s; both have 14 discards.
TEST_F(Golden, B_E1_118_RiichiToimen) {
  const Obs o = state(kGameB, 118, 0, "tsumo");
  expect_ones(o, ch::kRiichiSafe + 1, {7, 19, 25, 29});
  expect_ones(o, ch::kGenbutsu + 1, {0, 2, 3, 7, 9, 12, 15, 16, 19, 22, 23, 25, 28, 29, 31});
  expect_plane(o, ch::kSuji + 1, {{0, 1}, {6, 1}, {9, 1}, {12, 1}, {15, 1}, {19, 1}, {20, 1}, {22, 1}, {25, 1},
                                  {26, 1}, {3, 0.5F}, {4, 0.5F}, {5, 0.5F}, {13, 0.5F}});
  expect_ones(o, ch::kHalfSuji + 1, {3, 4, 5, 13});
  // Tedashi 7p (age 13), 6s (11), 5s (9), 4p (1).
  const auto e = [](double a) { return static_cast<float>(std::exp(-0.2 * a)); };
  expect_plane(o, ch::kMatagi + 1, {{10, e(1)}, {11, e(1)}, {13, e(1)}, {14, e(1)}, {17, e(13)}, {20, e(9)},
                                    {21, e(9)}, {24, e(9)}});
  expect_whole(o, ch::kTenpai + 1, 1.0);
  expect_whole(o, ch::kTenpai + 0, 1.0 * 14 / 18);   // three open melds
  expect_whole(o, ch::kTenpai + 2, 0.75 * 14 / 18);  // two open melds
  expect_plane(o, 23 + 3 + 1, {{28, 0.75F}, {29, 0.75F}});
  expect_plane(o, 23 + 3 + 0, {{2, 0.25F}, {3, 0.25F}, {4, 0.25F}});
  expect_plane(o, 23 + 9 + 0, {{21, 0.25F}, {22, 0.25F}, {23, 0.25F}});
  expect_plane(o, 23 + 9 + 1, {{30, 0.75F}});
  expect_zero(o, ch::kRed, 3);  // the red 5s is seat 3's
  expect_ones(o, ch::kKabe, {2, 17});  // 3m (all 4m visible), 9p (all 8p)
  expect_ones(o, ch::kOneChance, {1, 3, 18, 19, 20, 21, 23, 25});
  expect_whole(o, ch::kSticks, 0.1);
  expect_whole(o, ch::kScore + 2, 0.24);
}

// Game B, event 104: seat 1 calls chi on seat 0's 3m with 45m, next to its pons of W and S,
// keeping 78m EEE. Before the call 45m 78m EEE was 1-shanten; now any of 7m, 8m, E leaves tenpai.
TEST_F(Golden, B_E1_104_OwnChi) {
  const Obs o = state(kGameB, 104, 1, "chi");
  expect_ones(o, 0, {6, 7, 27});
  expect_ones(o, 1, {27});
  expect_ones(o, 2, {27});
  expect_ones(o, ch::kOwnMelds, {2, 3, 4, 28, 29});
  expect_ones(o, ch::kOwnMelds + 1, {28, 29});
  expect_ones(o, ch::kOwnMelds + 2, {28, 29});
  expect_zero(o, ch::kOwnMelds + 3);
  expect_plane(o, 23, {{2, 0.25F}, {3, 0.25F}, {4, 0.25F}});
  expect_plane(o, 24, {{28, 0.75F}, {29, 0.75F}});
  expect_zero(o, ch::kDrawn);
  expect_ones(o, ch::kEfficient, {6, 7, 27});
  expect_ones(o, ch::kProgress, {6, 7, 27});
  expect_whole(o, ch::kShanten + 0, 1.0);
  // Seat 0's called 3m stays in its river (kamicha of seat 1), a tedashi just now.
  EXPECT_EQ(o.at(ch::kRiver + 9, 2), 1.0F);
  EXPECT_EQ(o.at(ch::kRiver + 10, 2), 1.0F);
  EXPECT_EQ(o.at(ch::kRiver + 11, 2), 1.0F);
}

}  // namespace
}  // namespace hydra::encoder
