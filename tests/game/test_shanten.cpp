#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "hydra/common/error.hpp"
#include "hydra/game/shanten.hpp"
#include "testdata.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {
namespace {

TileCounts hand(std::string_view compact) { return parse_counts(compact); }

// ---- Published truth: ara_p test sets (14 tiles, then normal, kokushi, chiitoitsu) ---------

void check_ara_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::string line;
  int lines = 0, bad = 0;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    TileCounts c{};
    for (int i = 0; i < 14; ++i) {
      int t = -1;
      fields >> t;
      ASSERT_TRUE(t >= 0 && t < kNumTileTypes) << path << ":" << lines + 1;
      ++c[ix(t)];
    }
    int normal = 0, kokushi = 0, chiitoi = 0;
    fields >> normal >> kokushi >> chiitoi;
    ASSERT_TRUE(fields) << path << ":" << lines + 1;
    ++lines;
    const Shanten s = shanten_all(c);
    if (s.normal != normal || s.kokushi != kokushi || s.chiitoi != chiitoi) {
      if (++bad <= 5)
        ADD_FAILURE() << path.filename() << ":" << lines << " " << to_compact(c) << " want " << normal << "/"
                      << kokushi << "/" << chiitoi << " got " << s.normal << "/" << s.kokushi << "/" << s.chiitoi;
    }
  }
  EXPECT_EQ(lines, 10000) << path;
  EXPECT_EQ(bad, 0) << path;
}

TEST(ShantenAra, Normal) { HYDRA_REQUIRE_TESTDATA(p, "shanten/ara_p_normal_10000.txt"); check_ara_file(p); }
TEST(ShantenAra, Honitsu) { HYDRA_REQUIRE_TESTDATA(p, "shanten/ara_p_hon_10000.txt"); check_ara_file(p); }
TEST(ShantenAra, Chinitsu) { HYDRA_REQUIRE_TESTDATA(p, "shanten/ara_p_tin_10000.txt"); check_ara_file(p); }
TEST(ShantenAra, Kokushi) { HYDRA_REQUIRE_TESTDATA(p, "shanten/ara_p_koku_10000.txt"); check_ara_file(p); }

// ---- Hand-worked values ---------------------------------------------------------------------

TEST(Shanten, HandWorked) {
  // 123m 456p 789s + 11z 22z: shanpon tenpai. Chiitoi: 2 pairs, 11 kinds -> 6 - 2 = 4.
  // Kokushi: yaochu kinds 1m 9s 1z 2z (4) and a pair -> 13 - 4 - 1 = 8.
  const Shanten s = shanten_all(hand("123m456p789s1122z"));
  EXPECT_EQ(s.normal, 0);
  EXPECT_EQ(s.chiitoi, 4);
  EXPECT_EQ(s.kokushi, 8);
  EXPECT_EQ(s.best(), 0);
  // Complete hands.
  EXPECT_EQ(shanten_normal(hand("123m456p789s11122z")), -1);
  EXPECT_EQ(shanten_chiitoi(hand("1133m2255p4466s77z")), -1);
  EXPECT_EQ(shanten_kokushi(hand("19m19p19s12345677z")), -1);
  // Chiitoi needs seven different pairs: 1111m counts as one pair -> 6 - 6 + (7 - 6) = 1.
  EXPECT_EQ(shanten_chiitoi(hand("1111m2233p4455s66z")), 1);
  // 13-sided kokushi wait is tenpai; without any pair: 13 - 13 = 0.
  EXPECT_EQ(shanten_kokushi(hand("19m19p19s1234567z")), 0);
  // A hand of nothing useful: 8 shanten is the maximum normal shanten.
  EXPECT_EQ(shanten_normal(hand("147m258p369s1234z")), 8);
}

TEST(Shanten, FifthCopyIsNeverAWait) {
  // 1111m + 234p 567s 789s: 111m leaves a 1m tanki on a tile that does not exist, and 11m+11m
  // needs a fifth copy for a triplet; the best is 11m pair + 1m2m3m (needs 2m 3m, two tiles)
  // or 111m + 1m plus another pair (two tiles), so 1-shanten, not tenpai (Tenhou agrees: such a
  // hand is noten at an exhaustive draw).
  EXPECT_EQ(shanten_normal(hand("1111m234p567s789s")), 1);
}

TEST(Shanten, OpenHandsUseTheClosedPartOnly) {
  EXPECT_EQ(shanten_normal(hand("1m")), 0);     // tanki after four calls
  EXPECT_EQ(shanten_normal(hand("11m")), -1);   // complete after four calls
  EXPECT_EQ(shanten_normal(hand("19m")), 0);    // 2 tiles, no pair: one swap makes the pair
  // Four loose tiles of four suits, 1 meld + pair wanted: the pair and the meld can each reuse
  // one held tile, so 5 - 2 = 3 tiles are missing -> 2-shanten.
  EXPECT_EQ(shanten_normal(hand("1m5p9s1z")), 2);
  EXPECT_EQ(shanten_chiitoi(hand("1122m")), kNoShanten);
  EXPECT_EQ(shanten_kokushi(hand("19m19p19s1z")), kNoShanten);
  EXPECT_EQ(shanten_all(hand("1m5p9s1z")).best(), 2);
}

TEST(Shanten, BadHandsAreInvariantErrors) {
  EXPECT_THROW(shanten_normal(hand("123m")), InvariantError);               // 3n tiles
  EXPECT_THROW(shanten_normal(hand("123456789m123456p")), InvariantError);  // 15 tiles
  TileCounts five{};
  five[0] = 5;
  EXPECT_THROW(shanten_normal(five), InvariantError);
}

// ---- Ukeire and discards ---------------------------------------------------------------------

TEST(Ukeire, HandWorked) {
  // 2345m after four calls: 234m+5m or 2m+345m, waits 2m and 5m, 3 unseen copies each.
  const TileCounts h = hand("2345m");
  const Ukeire u = ukeire(h, h);
  EXPECT_EQ(u.shanten, 0);
  TileMask want;
  want.insert(TileType(1));
  want.insert(TileType(4));
  EXPECT_EQ(u.tiles, want);
  EXPECT_EQ(u.unseen, 6);
  // Shanpon 11z 22z: two copies of each left; one E visible elsewhere leaves 3.
  const TileCounts s = hand("123m456p789s1122z");
  TileCounts seen = s;
  seen[27] += 1;
  const Ukeire us = ukeire(s, seen);
  EXPECT_EQ(us.tiles.size(), 2);
  EXPECT_EQ(us.unseen, 3);
  // 13-sided kokushi: every yaochu kind is accepted, 13 * 3 = 39 unseen.
  const TileCounts k = hand("19m19p19s1234567z");
  EXPECT_EQ(ukeire(k, k).tiles.size(), 13);
  EXPECT_EQ(ukeire(k, k).unseen, 39);
}

TEST(DiscardShanten, HandWorked) {
  // 123m 456p 789s 11z 22z + 5z drawn: discarding 5z keeps tenpai; discarding from a complete
  // run breaks it; discarding 1z or 2z leaves 1-shanten (a single honour and a pair... or
  // chiitoitsu-far).
  const DiscardShanten d = discard_shanten(hand("123m456p789s11225z"));
  EXPECT_EQ(d.best, 0);
  TileMask five_z;
  five_z.insert(TileType(31));
  EXPECT_EQ(d.efficient(), five_z);
  EXPECT_EQ(d.after[0], 1);   // 1m
  EXPECT_EQ(d.after[27], 1);  // 1z
  EXPECT_EQ(d.after[33], kNoShanten);  // not held
  // Before the draw the hand was tenpai (0): no discard gets below it.
  EXPECT_TRUE(d.lowering(0).empty());
  EXPECT_EQ(d.lowering(1), five_z);
}

// ---- Independent invariants on random hands ---------------------------------------------------

// A slow, independent completeness test: a pair plus melds by plain recursion, seven different
// pairs, or thirteen orphans with a pair.
bool melds_only(TileCounts& c, int from) {
  while (from < kNumTileTypes && c[ix(from)] == 0) ++from;
  if (from == kNumTileTypes) return true;
  const auto i = ix(from);
  if (c[i] >= 3) {
    c[i] -= 3;
    const bool ok = melds_only(c, from);
    c[i] += 3;
    if (ok) return true;
  }
  if (from < 27 && from % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0) {
    --c[i], --c[i + 1], --c[i + 2];
    const bool ok = melds_only(c, from);
    ++c[i], ++c[i + 1], ++c[i + 2];
    if (ok) return true;
  }
  return false;
}

bool complete_normal(TileCounts c) {
  for (std::size_t p = 0; p < c.size(); ++p) {
    if (c[p] < 2) continue;
    c[p] -= 2;
    const bool ok = melds_only(c, 0);
    c[p] += 2;
    if (ok) return true;
  }
  return false;
}

bool complete_any(const TileCounts& c, int total) {
  if (complete_normal(c)) return true;
  if (total != 14) return false;
  int pairs = 0;
  for (auto v : c) pairs += v == 2;
  if (pairs == 7) return true;
  const std::array<int, 13> yaochu = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
  int kinds = 0, sum = 0;
  for (int t : yaochu) {
    kinds += c[ix(t)] > 0;
    sum += c[ix(t)];
  }
  return kinds == 13 && sum == 14;
}

TileCounts random_hand(std::mt19937& rng, int tiles) {
  // Random draws from a full set, weighted toward one suit sometimes so tenpai shapes appear.
  std::vector<int> pool;
  const bool flush = rng() % 2 == 0;
  for (int t = 0; t < kNumTileTypes; ++t)
    if (!flush || t < 9 || t >= 27)
      for (int k = 0; k < 4; ++k) pool.push_back(t);
  TileCounts c{};
  for (int i = 0; i < tiles; ++i) {
    const std::size_t j = i + rng() % (pool.size() - ix(i));
    std::swap(pool[ix(i)], pool[j]);
    ++c[static_cast<std::size_t>(pool[ix(i)])];
  }
  return c;
}

TEST(ShantenInvariants, CompleteAndTenpaiAgreeWithBruteForce) {
  std::mt19937 rng(12345);  // the test generator only; std::mt19937 output is fully specified
  int complete = 0, tenpai = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    const int total = std::array{2, 5, 8, 11, 14}[static_cast<std::size_t>(iter % 5)];
    const TileCounts c = random_hand(rng, total);
    const bool done = complete_any(c, total);
    EXPECT_EQ(shanten_best(c) == -1, done) << to_compact(c);
    complete += done;
    // Drop one tile: tenpai iff some draw completes it, and those draws are exactly the ukeire.
    TileCounts less = c;
    const std::size_t drop = [&] { std::size_t t = rng() % 34; while (less[t] == 0) t = (t + 1) % 34; return t; }();
    --less[drop];
    TileMask waits;
    for (int t = 0; t < kNumTileTypes; ++t) {
      auto more = less;
      if (more[ix(t)] == 4) continue;
      ++more[ix(t)];
      if (complete_any(more, total)) waits.insert(TileType(t));
    }
    const int s = shanten_best(less);
    EXPECT_EQ(s == 0, !waits.empty()) << to_compact(less);
    if (s == 0) {
      ++tenpai;
      EXPECT_EQ(ukeire(less, less).tiles, waits) << to_compact(less);
    }
  }
  EXPECT_GT(complete, 20);  // the generator must actually reach the interesting cases
  EXPECT_GT(tenpai, 200);
}

TEST(ShantenInvariants, UkeireIsExactlyTheShantenLoweringDraws) {
  std::mt19937 rng(777);
  for (int iter = 0; iter < 3000; ++iter) {
    const int total = std::array{4, 7, 10, 13}[static_cast<std::size_t>(iter % 4)];
    const TileCounts c = random_hand(rng, total);
    const Ukeire u = ukeire(c, c);
    int unseen = 0;
    for (int t = 0; t < kNumTileTypes; ++t) {
      const auto i = ix(t);
      TileCounts more = c;
      const bool can = more[i] < 4;
      if (can) ++more[i];
      const bool lowers = can && shanten_best(more) == u.shanten - 1;
      EXPECT_EQ(u.tiles.contains(TileType(t)), lowers) << to_compact(c) << " + " << t;
      if (can) {
        EXPECT_GE(shanten_best(more), u.shanten - 1);  // one tile moves one step at most
      }
      if (lowers) unseen += 4 - c[i];
    }
    EXPECT_EQ(u.unseen, unseen);
    // Every shanten above -1 has some accepting tile (the hand can always improve).
    if (u.shanten > -1) {
      EXPECT_FALSE(u.tiles.empty()) << to_compact(c);
    }
  }
}

// The cache answers as ukeire() does, on hits and misses alike: a 4-slot table over a pool of 64
// hands forces evictions and slot collisions, and `visible` differs from one question to the next
// (the cache keeps the accepted types, never the unseen count).
TEST(ShantenInvariants, UkeireCacheAnswersAsUkeire) {
  std::mt19937 rng(4242);
  std::vector<TileCounts> pool;
  for (int i = 0; i < 64; ++i) pool.push_back(random_hand(rng, std::array{1, 4, 7, 10, 13}[ix(i % 5)]));
  UkeireCache cache(2);
  for (int iter = 0; iter < 4000; ++iter) {
    const TileCounts& c = pool[rng() % (iter < 2000 ? 4 : pool.size())];  // first repeats, then churn
    TileCounts visible = c;
    for (auto& v : visible) v = static_cast<std::uint8_t>(v + rng() % (5 - v));
    const Ukeire want = ukeire(c, visible), got = cache(c, visible);
    EXPECT_EQ(got.shanten, want.shanten) << to_compact(c);
    EXPECT_EQ(got.tiles, want.tiles) << to_compact(c);
    EXPECT_EQ(got.unseen, want.unseen) << to_compact(c);
  }
  EXPECT_EQ(cache.hits() + cache.misses(), 4000);
  EXPECT_GT(cache.hits(), 1000);  // the repeated hands are answered from the table
  EXPECT_GT(cache.misses(), 1000);
  // A stored hand asked about with `visible` short of the hand is the same caller bug as for ukeire().
  const TileCounts& stored = pool[0];
  cache(stored, stored);
  TileCounts short_of_hand = stored;
  for (auto& v : short_of_hand)
    if (v > 0) {
      --v;
      break;
    }
  EXPECT_THROW(cache(stored, short_of_hand), InvariantError);
}

TEST(ShantenInvariants, DiscardBestEqualsTheHandsOwnShanten) {
  std::mt19937 rng(99);
  for (int iter = 0; iter < 3000; ++iter) {
    const int total = std::array{5, 8, 11, 14}[static_cast<std::size_t>(iter % 4)];
    const TileCounts c = random_hand(rng, total);
    const DiscardShanten d = discard_shanten(c);
    const int own = shanten_best(c);
    EXPECT_EQ(d.best, std::max(own, 0)) << to_compact(c);
    EXPECT_FALSE(d.efficient().empty());
    for (int t = 0; t < kNumTileTypes; ++t) {
      const auto i = ix(t);
      if (c[i] == 0) {
        EXPECT_EQ(d.after[i], kNoShanten);
        continue;
      }
      TileCounts less = c;
      --less[i];
      EXPECT_EQ(d.after[i], shanten_best(less));
    }
  }
}

}  // namespace
}  // namespace hydra::game
