#include <gtest/gtest.h>

#include <algorithm>

#include "hydra/data/mjai.hpp"
#include "hydra/data/tenhou.hpp"
#include "testdata.hpp"

namespace hydra::data {
namespace {

using game::EventType;
using game::Pai;
using game::TileType;

Pai tile(int id) { return Pai(game::Tile(id)); }

// Meld codes from the first real log (2010081709gm-00a9-0000-fe3371ad.xml), decoded by hand.
TEST(TenhouMeld, PonFromKamicha) {
  // 43051 = 0b1010100000101011: from 3 (kamicha), pon bit, left-out copy 1, 43051>>9 = 84 = 28*3+0:
  // kind 28 (S), the called tile is the first used copy (id 112).
  const auto e = decode_tenhou_meld(1, 43051);
  EXPECT_EQ(e.type, EventType::pon);
  EXPECT_EQ(e.target, game::Seat(0));
  EXPECT_EQ(e.pai, tile(112));
  ASSERT_EQ(e.consumed.size(), 2);
  EXPECT_EQ(e.consumed[0], tile(114));
}

TEST(TenhouMeld, ChiWithRedFive) {
  // chi of 4s-5s-6s: base kind 21 (4s) -> t = 2*7+3 = 17; called the 6s (position 2);
  // copies 0 (id 84), 0 (id 88 = red 5s), 1 (id 93): m = ((17*3+2) << 10) | (1 << 7) | 0x4 | 3.
  const unsigned m = ((17u * 3 + 2) << 10) | (1u << 7) | 0x4 | 3;
  const auto e = decode_tenhou_meld(0, m);
  EXPECT_EQ(e.type, EventType::chi);
  EXPECT_EQ(e.target, game::Seat(3));
  EXPECT_EQ(e.pai, tile(93));
  ASSERT_EQ(e.consumed.size(), 2);
  EXPECT_EQ(e.consumed[0], Pai(TileType(21)));
  EXPECT_EQ(e.consumed[1], Pai(TileType(22), /*red=*/true));
}

TEST(TenhouMeld, KansAndKakan) {
  // ankan of 2m: m = id << 8 with from 0 (ids 4-7).
  const auto ankan = decode_tenhou_meld(2, 4u << 8);
  EXPECT_EQ(ankan.type, EventType::ankan);
  EXPECT_EQ(ankan.consumed.size(), 4);
  // daiminkan of 9s (id 104) from toimen.
  const auto dmk = decode_tenhou_meld(3, (104u << 8) | 2);
  EXPECT_EQ(dmk.type, EventType::daiminkan);
  EXPECT_EQ(dmk.target, game::Seat(1));
  EXPECT_EQ(dmk.pai, tile(104));
  EXPECT_EQ(dmk.consumed.size(), 3);
  // kakan of P (kind 31) adding copy 2 (id 126): m = (31*3+0) << 9 | 2 << 5 | 0x10 | 1.
  const auto kakan = decode_tenhou_meld(0, ((31u * 3) << 9) | (2u << 5) | 0x10 | 1);
  EXPECT_EQ(kakan.type, EventType::kakan);
  EXPECT_EQ(kakan.pai, tile(126));
  EXPECT_EQ(kakan.consumed.size(), 3);
  EXPECT_THROW(decode_tenhou_meld(0, 0x20), UnsupportedRule);  // nukidora
}

// Each Tenhou XML game gives the same events as its gimite mjai conversion (same log id).
TEST(TenhouXml, AllGamesMatchTheGimiteConversions) {
  HYDRA_REQUIRE_TESTDATA(dir, "tenhou_xml");
  const auto mjai_dir = dir.parent_path() / "mjai";
  int games = 0, events = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    const auto mjai = mjai_dir / (f.path().stem().string() + ".json.gz");
    if (!std::filesystem::exists(mjai)) continue;
    SCOPED_TRACE(f.path().string());
    const GameLog from_xml = read_tenhou_xml(f.path());
    const GameLog from_mjai = read_mjai(mjai);
    const auto diff = first_difference(from_xml, from_mjai);
    EXPECT_FALSE(diff) << *diff;
    ++games;
    events += static_cast<int>(from_xml.events.size());
  }
  EXPECT_EQ(games, 34);
  EXPECT_GT(events, 30000);
}

TEST(TenhouXml, OtherRulesAreRejectedWithTheRule) {
  HYDRA_REQUIRE_TESTDATA(dir, "other_rules/xml");
  int files = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    SCOPED_TRACE(f.path().string());
    ++files;
    try {
      read_tenhou_xml(f.path());
      ADD_FAILURE() << "accepted";
    } catch (const UnsupportedRule& e) {
      EXPECT_NE(std::string(e.what()).find("unsupported rule: "), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(f.path().string()), std::string::npos) << e.what();
    } catch (const Error& e) {  // the truncated log
      EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
      EXPECT_NE(f.path().filename().string().find("ron3"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(files, 7);
}

TEST(TenhouXml, BrokenXmlNamesFileAndLine) {
  const std::string xml = "<mjloggm ver=\"2.3\">\n<GO type=\"169\"/>\n<INIT seed=\"0,0,0\n";
  try {
    parse_tenhou_xml(xml, "cut.xml");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cut.xml:3: broken XML"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hydra::data
