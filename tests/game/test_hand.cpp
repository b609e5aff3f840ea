// Melds and hands: the kobalab meld notation both ways (called tile, seat, red fives kept), the
// checks that turn bad input into hydra::Error, and a random-string fuzz of every hand parser:
// any input either parses (and round-trips) or throws hydra::Error, nothing else.

#include <gtest/gtest.h>

#include <random>

#include "hydra/common/error.hpp"
#include "hydra/game/hand.hpp"
#include "hydra/game/meld.hpp"
#include "hydra/game/score_check.hpp"

namespace hydra::game {
namespace {

TEST(Meld, ParsesEveryKind) {
  const Meld chi = parse_meld("m3-45");
  EXPECT_EQ(chi.kind(), MeldKind::chi);
  EXPECT_EQ(chi.from(), From::kamicha);
  EXPECT_EQ(chi.called(), Pai(TileType(2)));
  EXPECT_EQ(chi.first(), TileType(2));
  const Meld red_chi = parse_meld("p40-6");  // the red five was called
  EXPECT_EQ(red_chi.called(), Pai(TileType(13), true));
  EXPECT_EQ(red_chi.red_count(), 1);
  const Meld pon = parse_meld("z111=");
  EXPECT_EQ(pon.kind(), MeldKind::pon);
  EXPECT_EQ(pon.from(), From::toimen);
  EXPECT_TRUE(pon.is_open());
  const Meld dmk = parse_meld("s5550+");
  EXPECT_EQ(dmk.kind(), MeldKind::daiminkan);
  EXPECT_EQ(dmk.from(), From::shimocha);
  EXPECT_EQ(dmk.called(), Pai(TileType(22), true));
  EXPECT_EQ(dmk.size(), 4);
  const Meld kakan = parse_meld("m555=0");
  EXPECT_EQ(kakan.kind(), MeldKind::kakan);
  EXPECT_EQ(kakan.from(), From::toimen);
  EXPECT_EQ(kakan.red_count(), 1);
  const Meld ankan = parse_meld("p4444");
  EXPECT_EQ(ankan.kind(), MeldKind::ankan);
  EXPECT_FALSE(ankan.is_open());
  EXPECT_TRUE(ankan.is_kan());
  TileCounts c{};
  ankan.add_to(c);
  EXPECT_EQ(c[12], 4);
}

TEST(Meld, TextRoundTrips) {
  for (const char* text : {"m3-45", "m23-4", "m34-0", "p40-6", "z111=", "m550+", "m505-", "s5555-", "z7777+", "m555=5",
                           "p505-5", "p4444", "m5505", "m11+1"}) {
    const Meld m = parse_meld(text);
    EXPECT_EQ(parse_meld(to_string(m)), m) << text << " -> " << to_string(m);
  }
  EXPECT_EQ(to_string(parse_meld("z111=")), "z111=");
  EXPECT_EQ(to_string(parse_meld("m3-45")), "m3-45");
  EXPECT_EQ(to_string(parse_meld("m555=5")), "m555=5");
}

TEST(Meld, BadMeldsAreUserErrors) {
  for (const char* text : {"", "m", "m12", "m123", "m12-4", "z12-3", "m1-2-3", "x11-1", "m1234-", "m5-55=",
                           "m456+", "z888-", "z0-12", "m11111", "m1-"})
    EXPECT_THROW(parse_meld(text), Error) << text;
}

TEST(Hand, ChecksWhatUsersGetWrong) {
  EXPECT_NO_THROW(make_hand("123m456p789s11222z", {}));
  EXPECT_THROW(make_hand("11111m456p789s1122z", {}), Error);                 // five copies
  EXPECT_THROW(make_hand("1m456p789s1122z", {parse_meld("m111-"), parse_meld("m1-23")}), Error);  // five 1m
  EXPECT_THROW(make_hand("00m456p789s11222z", {}), Error);                   // two red 5m
  EXPECT_THROW(make_hand("0m456p789s1122z", {parse_meld("m40-6")}), Error);  // red 5m twice
  EXPECT_THROW(make_hand("123m456p789s1122z", {parse_meld("s1-23")}), Error);  // 16 tiles
  EXPECT_THROW(make_hand("123m456p789s12z", {}), Error);                     // 11 tiles
  const Hand h = make_hand("406m456p789s1122z", {});
  EXPECT_EQ(h.red_count(), 1);
  EXPECT_EQ(to_string(h), "406m456p789s1122z");
  const Hand m = make_hand("406m789s1122z", {parse_meld("p40-6")});
  EXPECT_EQ(m.red_count(), 2);
  EXPECT_FALSE(m.is_menzen());
  EXPECT_EQ(to_string(m), "406m789s1122z p40-6");
}

TEST(Hand, KobalabTiles) {
  const auto t = parse_kobalab_tiles("m3368p234067s123m7");
  ASSERT_EQ(t.size(), 14U);
  EXPECT_EQ(t.back(), Pai(TileType(6)));  // the drawn tile, written last
  EXPECT_EQ(t[7], Pai(TileType(13), true));
  EXPECT_THROW(parse_kobalab_tiles("3m"), Error);
  EXPECT_THROW(parse_kobalab_tiles("z8"), Error);
}

// Random strings from the notation's own alphabet (plus junk) through every parser; half of them
// start from a well-formed meld or hand and get a few characters changed, so the success paths
// are exercised too.
std::string random_text(std::mt19937& rng) {
  static const std::string alphabet = "0123456789mpsz-=+,x ";
  static const std::vector<std::string> seeds = {"m3-45", "z111=", "s5555-", "m555=5", "p4444", "p40-6",
                                                 "123m456p789s1122z", "m406p123s789z1122"};
  std::string s;
  if (rng() % 2) {
    s = seeds[rng() % seeds.size()];
    const int edits = static_cast<int>(rng() % 3);
    for (int k = 0; k < edits && !s.empty(); ++k) {
      const std::size_t at = rng() % s.size();
      switch (rng() % 3) {
        case 0: s[at] = alphabet[rng() % alphabet.size()]; break;
        case 1: s.erase(at, 1); break;
        default: s.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
      }
    }
    return s;
  }
  const int len = static_cast<int>(rng() % 20);
  for (int k = 0; k < len; ++k) s.push_back(alphabet[rng() % alphabet.size()]);
  return s;
}

TEST(HandFuzz, RandomStringsParseOrThrowHydraError) {
  std::mt19937 rng(12345);
  int parsed_melds = 0, parsed_hands = 0;
  for (int i = 0; i < 60000; ++i) {
    const std::string s = random_text(rng);
    try {
      const Meld m = parse_meld(s);
      ++parsed_melds;
      ASSERT_EQ(parse_meld(to_string(m)), m) << s;
    } catch (const Error&) {
    }
    try {
      const Hand h = make_hand(s, {});
      ++parsed_hands;
      ASSERT_EQ(to_string(make_hand(to_string(h), {})), to_string(h)) << s;
    } catch (const Error&) {
    }
    try {
      parse_kobalab_tiles(s);
    } catch (const Error&) {
    }
  }
  EXPECT_GT(parsed_melds, 1000);  // the fuzz reaches the success paths too
  EXPECT_GT(parsed_hands, 100);
}

// Hands built from random tiles (valid notation, random sizes and counts).
TEST(HandFuzz, RandomTileListsValidateOrThrow) {
  std::mt19937 rng(99);
  int ok = 0;
  for (int i = 0; i < 50000; ++i) {
    std::string s;
    const int n = 10 + static_cast<int>(rng() % 6);
    for (int k = 0; k < n; ++k) {
      const int suit = static_cast<int>(rng() % 4);
      s.push_back(static_cast<char>('0' + (suit == 3 ? 1 + rng() % 7 : rng() % 10)));
      s.push_back("mpsz"[suit]);
    }
    try {
      const Hand h = make_hand(s, {});
      ++ok;
      EXPECT_TRUE(h.closed_size() == 13 || h.closed_size() == 14);
    } catch (const Error&) {
    }
  }
  EXPECT_GT(ok, 1000);
}

}  // namespace
}  // namespace hydra::game
