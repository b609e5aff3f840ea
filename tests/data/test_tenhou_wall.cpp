// Tenhou's walls from their SHUFFLE seeds (tenhou_wall.hpp) against independent truth: the
// reference MT19937 output and std::mt19937, Tenhou's published validation game (its yama, dealt
// hands and first draws), and real 2022 Houou logs read tag by tag at the level of tile ids; then
// the replay checker on those logs, tampered logs and bad seeds.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hydra/data/replay.hpp"
#include "hydra/data/tenhou.hpp"
#include "hydra/data/tenhou_wall.hpp"
#include "hydra/data/text_file.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/table.hpp"
#include "testdata.hpp"
#include "hydra/common/index.hpp"

namespace hydra::data {
namespace {

namespace fs = std::filesystem;
using tenhou::Mt19937ar;
using tenhou::TenhouWall;
using tenhou::WallGenerator;

const game::TableRules& tenhou_rules() { return game::table_rules("tenhou"); }

std::vector<int> ints(const std::string& csv) {
  std::vector<int> out;
  std::size_t i = 0;
  while (i < csv.size()) {
    std::size_t used = 0;
    out.push_back(std::stoi(csv.substr(i), &used));
    i += used + 1;
  }
  return out;
}

template <std::size_t N>
std::vector<int> ids(const std::array<game::Tile, N>& tiles) {
  std::vector<int> out;
  for (game::Tile t : tiles) out.push_back(t.id());
  return out;
}

// --- MT19937 ---

TEST(TenhouWallMt, OneWordSeedEqualsStdMt19937) {
  for (std::uint32_t seed : {5489u, 0u, 19650218u, 0xFFFFFFFFu}) {
    Mt19937ar mine(seed);
    std::mt19937 std_mt(seed);
    for (int i = 0; i < 2000; ++i) ASSERT_EQ(mine.next(), std_mt()) << "seed " << seed << ", output " << i;
  }
}

TEST(TenhouWallMt, InitByArrayGivesTheReferenceOutput) {
  // mt19937ar.out, the output the reference code publishes: init_by_array({0x123, 0x234, 0x345,
  // 0x456}), then genrand_int32() (CPython's random.seed(0x456_00000345_00000234_00000123) gives
  // the same words).
  const std::array<std::uint32_t, 4> key{0x123, 0x234, 0x345, 0x456};
  Mt19937ar mt(key);
  const std::vector<std::uint32_t> expected{1067595299u, 955945823u,  477289528u, 4107218783u, 4228976476u,
                                            3344332714u, 3355579695u, 227628506u, 810200273u,  2591290167u};
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(mt.next(), expected[i]) << "output " << i;
}

// --- the validation game Tenhou published ---

struct Validation {
  std::string seed;
  nlohmann::json kyoku;
};

std::optional<Validation> load_validation(const fs::path& file) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  const nlohmann::json j = nlohmann::json::parse(in);
  Validation v;
  v.seed = j.at("shuffle_seed").get<std::string>();
  // Tenhou's page quotes the base64 text: mt19937ar-sha512-n288-base64,"...".
  v.seed.erase(std::remove(v.seed.begin(), v.seed.end(), '"'), v.seed.end());
  v.kyoku = j.at("kyoku").at(0);
  return v;
}

TEST(TenhouWall, ValidationGameGivesThePublishedYamaHandsAndDraws) {
  HYDRA_REQUIRE_TESTDATA(file, "tenhou_wall/validation_2016022509.json");
  const auto v = load_validation(file);
  ASSERT_TRUE(v);
  const TenhouWall w = WallGenerator(tenhou::parse_shuffle_seed(v->seed)).next();

  EXPECT_EQ(ids(w.yama), v->kyoku.at("yama").get<std::vector<int>>());
  const auto dice = v->kyoku.at("dice_0based").get<std::vector<int>>();
  EXPECT_EQ(w.dice[0], dice.at(0) + 1);
  EXPECT_EQ(w.dice[1], dice.at(1) + 1);
  const std::vector<int> init = ints(v->kyoku.at("init_seed").get<std::string>());
  EXPECT_EQ(w.dice[0], init.at(3) + 1);
  EXPECT_EQ(w.dice[1], init.at(4) + 1);
  EXPECT_EQ(w.dora_indicator(0).id(), init.at(5));

  const int oya = v->kyoku.at("oya").get<int>();
  const auto hai = v->kyoku.at("hai").get<std::vector<std::vector<int>>>();
  for (int seat = 0; seat < 4; ++seat)  // as logged, in dealing order
    EXPECT_EQ(ids(w.haipai((seat - oya + 4) % 4)), hai.at(ix(seat))) << "seat " << seat;

  const auto draws = v->kyoku.at("first_draws").get<std::vector<std::string>>();  // "T33", "U86", ...
  for (std::size_t k = 0; k < draws.size(); ++k) {
    EXPECT_EQ(draws[k][0], "TUVW"[(ix(oya) + k) % 4]);
    EXPECT_EQ(w.live_draw(static_cast<int>(k)).id(), std::stoi(draws[k].substr(1))) << draws[k];
  }
}

// game::Wall built from to_game_wall() deals, draws and reveals what TenhouWall's layout says.
TEST(TenhouWall, GameWallLayoutHoldsTheSameTiles) {
  HYDRA_REQUIRE_TESTDATA(file, "tenhou_wall/validation_2016022509.json");
  const auto v = load_validation(file);
  ASSERT_TRUE(v);
  WallGenerator gen(tenhou::parse_shuffle_seed(v->seed));
  for (int kyoku = 0; kyoku < 20; ++kyoku) {
    const TenhouWall w = gen.next();
    game::Wall g(w.to_game_wall());
    for (int s = 0; s < 4; ++s) EXPECT_EQ(ids(g.haipai(s)), ids(w.haipai(s)));
    for (int k = 0; k < 30; ++k) EXPECT_EQ(g.draw().id(), w.live_draw(k).id());
    for (int kan = 0; kan < 4; ++kan) {
      EXPECT_EQ(g.draw_rinshan().id(), w.rinshan(kan).id());
      g.reveal_kan_dora();
    }
    EXPECT_EQ(g.live_left(), 70 - 30 - 4);
    for (int i = 0; i < 5; ++i) {
      EXPECT_EQ(g.dora_indicators()[ix(i)].id(), w.dora_indicator(i).id());
      EXPECT_EQ(g.ura_indicators()[ix(i)].id(), w.ura_indicator(i).id());
    }
    // The layout as Tenhou's README states it, index by index.
    EXPECT_EQ(w.rinshan(0).id(), w.yama[1].id());
    EXPECT_EQ(w.rinshan(1).id(), w.yama[0].id());
    EXPECT_EQ(w.rinshan(2).id(), w.yama[3].id());
    EXPECT_EQ(w.rinshan(3).id(), w.yama[2].id());
    for (int i = 0; i < 5; ++i) {
      EXPECT_EQ(w.dora_indicator(i).id(), w.yama[static_cast<std::size_t>(5 + 2 * i)].id());
      EXPECT_EQ(w.ura_indicator(i).id(), w.yama[static_cast<std::size_t>(4 + 2 * i)].id());
    }
    EXPECT_EQ(w.haipai(0)[12].id(), w.yama[87].id());
    EXPECT_EQ(w.haipai(3)[12].id(), w.yama[84].id());
    EXPECT_EQ(w.live_draw(69).id(), w.yama[14].id());
  }
}

// The engine's table, given a log's walls (GameLog::walls), deals the log's first kyoku: the same
// hands, dora indicator and first draw as the log.
TEST(TenhouWall, TableOnTheLogsWallsDealsTheLogsFirstKyoku) {
  HYDRA_REQUIRE_TESTDATA(dir, "houou/hanchan_2022");
  const fs::path file = hydra::testing::files_ending_with(dir, ".mjlog.xml.gz").at(0);
  const GameLog log = read_tenhou_xml(file);
  ASSERT_FALSE(log.walls.empty());
  const game::Table table(tenhou_rules(), log.walls);
  auto first = [](const std::vector<game::Event>& events, game::EventType type) {
    return *std::find_if(events.begin(), events.end(), [&](const game::Event& e) { return e.type == type; });
  };
  const game::Event want = first(log.events, game::EventType::start_kyoku);
  const game::Event got = first(table.events(), game::EventType::start_kyoku);
  ASSERT_EQ(want.oya, got.oya);
  EXPECT_EQ(want.dora_marker, got.dora_marker);
  auto sorted = [](const game::Tehai& h) {
    std::vector<int> v;
    for (game::Pai p : h) v.push_back(tenhou_order(p));
    std::sort(v.begin(), v.end());
    return v;
  };
  for (std::size_t s = 0; s < 4; ++s) EXPECT_EQ(sorted(want.tehais[s]), sorted(got.tehais[s])) << "seat " << s;
  const game::Event want_draw = first(log.events, game::EventType::tsumo);
  const game::Event got_draw = first(table.events(), game::EventType::tsumo);
  EXPECT_EQ(want_draw.actor, got_draw.actor);
  EXPECT_EQ(want_draw.pai, got_draw.pai);
}

// --- real logs, tag by tag, at the level of tile ids ---

struct Tag {
  std::string name;
  std::map<std::string, std::string> attrs;
};

// Every element's start tag with its attributes, read by hand (an mjlog is flat: tags with
// name="value" attributes, no text that matters here).
std::vector<Tag> tags_of(const std::string& xml) {
  std::vector<Tag> out;
  const auto is_name = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  for (std::size_t i = xml.find('<'); i != std::string::npos; i = xml.find('<', i)) {
    std::size_t j = i + 1;
    while (j < xml.size() && is_name(xml[j])) ++j;
    Tag t{xml.substr(i + 1, j - i - 1), {}};
    const std::size_t close = xml.find('>', j);
    if (close == std::string::npos) break;
    for (std::size_t k = j; k < close;) {
      while (k < close && !is_name(xml[k])) ++k;
      std::size_t e = k;
      while (e < close && is_name(xml[e])) ++e;
      if (e >= close || xml[e] != '=' || e + 1 >= close || xml[e + 1] != '"') break;
      const std::size_t q = xml.find('"', e + 2);
      if (q == std::string::npos || q > close) break;
      t.attrs[xml.substr(k, e - k)] = xml.substr(e + 2, q - e - 2);
      k = q + 1;
    }
    if (!t.name.empty() && std::isalpha(static_cast<unsigned char>(t.name[0]))) out.push_back(std::move(t));
    i = close + 1;
  }
  return out;
}

struct IdCheck {
  int kyoku = 0, live = 0, rinshan = 0, dora = 0, ura = 0;
};

// Follows one mjlog with the walls of its seed, by Tenhou's tile ids: every INIT's hands (in
// dealing order), dice and dora indicator, every draw (a draw right after a kan is its rinshan
// tile), every DORA and every doraHaiUra.
IdCheck check_ids(const fs::path& file) {
  IdCheck c;
  std::optional<WallGenerator> gen;
  TenhouWall w;
  int oya = 0, live = 0, kans = 0, dora = 0;
  bool after_kan = false;
  for (const Tag& t : tags_of(read_text_file(file))) {
    const std::string kyoku = "kyoku " + std::to_string(c.kyoku) + ": ";
    if (t.name == "SHUFFLE") {
      gen.emplace(tenhou::parse_shuffle_seed(t.attrs.at("seed")));
    } else if (t.name == "INIT") {
      w = gen->next();
      ++c.kyoku;
      oya = std::stoi(t.attrs.at("oya"));
      live = kans = 0;
      dora = 1;
      after_kan = false;
      const auto seed = ints(t.attrs.at("seed"));
      EXPECT_EQ(w.dice[0], seed.at(3) + 1) << kyoku;
      EXPECT_EQ(w.dice[1], seed.at(4) + 1) << kyoku;
      EXPECT_EQ(w.dora_indicator(0).id(), seed.at(5)) << kyoku;
      for (int s = 0; s < 4; ++s)
        EXPECT_EQ(ids(w.haipai((s - oya + 4) % 4)), ints(t.attrs.at("hai" + std::to_string(s)))) << kyoku << "seat " << s;
    } else if (t.name.size() > 1 && std::string("TUVW").find(t.name[0]) != std::string::npos && std::isdigit(t.name[1])) {
      const int id = std::stoi(t.name.substr(1));
      if (after_kan) {
        EXPECT_EQ(w.rinshan(kans - 1).id(), id) << kyoku << "rinshan " << kans;
        ++c.rinshan;
        after_kan = false;
      } else {
        EXPECT_EQ(w.live_draw(live).id(), id) << kyoku << "live draw " << live;
        ++live;
        ++c.live;
      }
    } else if (t.name == "N") {
      const unsigned m = static_cast<unsigned>(std::stoul(t.attrs.at("m")));
      // Bit 2 chi, else bit 3 pon, else bit 4 kakan, else bit 5 nukidora, else a kan.
      const bool kan = (m & 0xC) == 0 && ((m & 0x10) != 0 || (m & 0x20) == 0);
      if (kan) {
        ++kans;
        after_kan = true;
      }
    } else if (t.name == "DORA") {
      EXPECT_EQ(w.dora_indicator(dora).id(), std::stoi(t.attrs.at("hai"))) << kyoku << "dora " << dora;
      ++dora;
      ++c.dora;
    } else if (t.name == "AGARI" && t.attrs.count("doraHaiUra")) {
      const auto ura = ints(t.attrs.at("doraHaiUra"));
      EXPECT_EQ(static_cast<int>(ura.size()), dora) << kyoku;
      for (std::size_t i = 0; i < ura.size(); ++i) EXPECT_EQ(w.ura_indicator(static_cast<int>(i)).id(), ura[i]) << kyoku;
      c.ura += static_cast<int>(ura.size());
    }
  }
  EXPECT_TRUE(gen.has_value()) << "no SHUFFLE";
  return c;
}

// The first n logs of a 2022 folder by name.
std::vector<fs::path> sample_logs(const fs::path& dir, std::size_t n) {
  auto files = hydra::testing::files_ending_with(dir, ".mjlog.xml.gz");
  if (files.size() > n) files.resize(n);
  return files;
}

TEST(TenhouWall, Real2022LogsMatchTheirSeedsTileForTile) {
  HYDRA_REQUIRE_TESTDATA(dir, "houou");
  IdCheck total;
  for (const char* sub : {"hanchan_2022", "tonpuu_2022"}) {
    for (const fs::path& f : sample_logs(dir / sub, 6)) {
      SCOPED_TRACE(f.string());
      const IdCheck c = check_ids(f);
      EXPECT_GT(c.kyoku, 3);
      total.kyoku += c.kyoku;
      total.live += c.live;
      total.rinshan += c.rinshan;
      total.dora += c.dora;
      total.ura += c.ura;
    }
  }
  EXPECT_GT(total.kyoku, 80);
  EXPECT_GT(total.live, 5000);
  EXPECT_GT(total.rinshan, 0);  // the sample holds kans, kan dora and riichi wins
  EXPECT_GT(total.dora, 0);
  EXPECT_GT(total.ura, 0);
}

// --- the reader and the replay checker ---

TEST(TenhouWall, ReplayChecksEveryKyokuOfRealLogsAgainstTheWall) {
  HYDRA_REQUIRE_TESTDATA(dir, "houou");
  int games = 0, rinshan = 0;
  for (const char* sub : {"hanchan_2022", "tonpuu_2022"}) {
    for (const fs::path& f : sample_logs(dir / sub, 6)) {
      const GameLog log = read_tenhou_xml(f);
      const ReplayReport r = check_game(log, tenhou_rules(), f.string());
      ASSERT_EQ(r.status, ReplayStatus::pass) << r.message;
      EXPECT_EQ(static_cast<int>(log.walls.size()), r.kyoku) << f;
      EXPECT_EQ(r.wall_kyoku, r.kyoku) << f;
      const auto tsumos = std::count_if(log.events.begin(), log.events.end(),
                                        [](const game::Event& e) { return e.type == game::EventType::tsumo; });
      EXPECT_EQ(r.wall_draws + r.wall_rinshan, tsumos) << f;
      EXPECT_GE(r.wall_indicators, r.kyoku) << f;
      rinshan += r.wall_rinshan;
      ++games;
    }
  }
  EXPECT_EQ(games, 12);
  EXPECT_GT(rinshan, 0);
}

// Every log of tenhou_xml/ (2010-2023) with a base64 seed is checked against its walls in every
// kyoku; the others (no SHUFFLE, the hex form) pass without.
TEST(TenhouWall, EveryTenhouXmlLogWithASeedIsWallChecked) {
  HYDRA_REQUIRE_TESTDATA(dir, "tenhou_xml");
  int with_seed = 0, without = 0;
  for (const fs::path& f : hydra::testing::files_ending_with(dir, ".xml")) {
    const bool seeded = read_text_file(f).find(std::string(tenhou::kShufflePrefix)) != std::string::npos;
    const ReplayReport r = check_file(f, tenhou_rules());
    EXPECT_EQ(r.status, ReplayStatus::pass) << r.message;
    EXPECT_EQ(r.wall_kyoku, seeded ? r.kyoku : 0) << f;
    (seeded ? with_seed : without) += 1;
  }
  EXPECT_EQ(with_seed, 28);
  EXPECT_EQ(without, 6);
}

TEST(TenhouWall, LogsWithoutABase64SeedHaveNoWallsAndStillPass) {
  HYDRA_REQUIRE_TESTDATA(dir, "tenhou_xml");
  // No SHUFFLE (dnovikoff_bug2) and the older hex seed form (dnovikoff_bug8).
  for (const char* name : {"dnovikoff_bug2.xml", "dnovikoff_bug8.xml"}) {
    const GameLog log = read_tenhou_xml(dir / name);
    EXPECT_TRUE(log.walls.empty()) << name;
    const ReplayReport r = check_game(log, tenhou_rules(), name);
    EXPECT_EQ(r.status, ReplayStatus::pass) << r.message;
    EXPECT_EQ(r.wall_kyoku, 0);
  }
}

// The outcome of reading and checking a log given as text: the read error or the check's report.
ReplayReport check_text(const std::string& xml, const std::string& name) {
  try {
    return check_game(parse_tenhou_xml(xml, name), tenhou_rules(), name);
  } catch (const Error& e) {
    ReplayReport r;
    r.status = ReplayStatus::error;
    r.message = e.what();
    return r;
  }
}

TEST(TenhouWall, ATamperedSeedFailsNamingTheFileAndTheKyoku) {
  HYDRA_REQUIRE_TESTDATA(dir, "houou/hanchan_2022");
  const fs::path file = sample_logs(dir, 1).at(0);
  const std::string xml = read_text_file(file);
  const std::size_t at = xml.find(std::string(tenhou::kShufflePrefix));
  ASSERT_NE(at, std::string::npos);
  ASSERT_EQ(check_text(xml, "original.xml").status, ReplayStatus::pass);
  // Each of several single-character changes (one bit of one key word) breaks the first kyoku.
  for (std::size_t offset : {0u, 100u, 1000u, 3000u}) {
    std::string bad = xml;
    char& c = bad[at + tenhou::kShufflePrefix.size() + offset];
    c = c == 'A' ? 'B' : 'A';
    const ReplayReport r = check_text(bad, "tampered.xml");
    EXPECT_NE(r.status, ReplayStatus::pass) << "offset " << offset;
    EXPECT_NE(r.message.find("tampered.xml"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("kyoku E1-0"), std::string::npos) << r.message;
  }
}

// Swaps the tiles of two tsumogiri draws (a draw and the discard of the same tile) of different
// kinds in the k-th kyoku: a legal game still, but not the one the wall deals.
bool swap_two_tsumogiri_draws(GameLog& log, int kyoku, int& first_draw_index) {
  int k = 0;
  std::vector<std::size_t> draws;
  for (std::size_t i = 0; i + 1 < log.events.size(); ++i) {
    const game::Event& e = log.events[i];
    if (e.type == game::EventType::start_kyoku) ++k;
    if (k != kyoku || e.type != game::EventType::tsumo) continue;
    const game::Event& d = log.events[i + 1];
    if (d.type == game::EventType::dahai && d.tsumogiri && d.pai == e.pai) draws.push_back(i);
  }
  for (std::size_t a = 0; a < draws.size(); ++a)
    for (std::size_t b = a + 1; b < draws.size(); ++b) {
      game::Event& x = log.events[draws[a]];
      game::Event& y = log.events[draws[b]];
      if (x.pai.type() == y.pai.type() || x.actor == y.actor) continue;
      std::swap(x.pai, y.pai);
      log.events[draws[a] + 1].pai = x.pai;
      log.events[draws[b] + 1].pai = y.pai;
      first_draw_index = static_cast<int>(draws[a]);
      return true;
    }
  return false;
}

TEST(TenhouWall, AnAlteredDrawFailsNamingTheKyokuAndTheDraw) {
  HYDRA_REQUIRE_TESTDATA(dir, "houou/hanchan_2022");
  const fs::path file = sample_logs(dir, 1).at(0);
  GameLog log = read_tenhou_xml(file);
  int at = -1;
  ASSERT_TRUE(swap_two_tsumogiri_draws(log, 3, at));
  const ReplayReport r = check_game(log, tenhou_rules(), "altered.xml");
  EXPECT_EQ(r.status, ReplayStatus::fail);
  // The place is the first swapped draw, in the third kyoku.
  EXPECT_NE(r.message.find("altered.xml:" + std::to_string(at + 1) + ": kyoku "), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("draw (live draw "), std::string::npos) << r.message;
  EXPECT_NE(r.message.find(", the wall gives "), std::string::npos) << r.message;
  EXPECT_EQ(r.wall_kyoku, 3);
}

TEST(TenhouWall, AnAlteredUraIndicatorFails) {
  HYDRA_REQUIRE_TESTDATA(dir, "houou/hanchan_2022");
  for (const fs::path& f : sample_logs(dir, 6)) {
    GameLog log = read_tenhou_xml(f);
    for (std::size_t i = 0; i < log.events.size(); ++i) {
      game::Event& e = log.events[i];
      if (e.type != game::EventType::hora || e.ura_markers.empty()) continue;
      const game::Pai old = e.ura_markers[0];
      e.ura_markers[0] = game::Pai(game::TileType((old.type().index() + 1) % 34));
      const ReplayReport r = check_game(log, tenhou_rules(), "ura.xml");
      EXPECT_EQ(r.status, ReplayStatus::fail);
      EXPECT_NE(r.message.find("ura.xml:" + std::to_string(i + 1) + ": kyoku "), std::string::npos) << r.message;
      EXPECT_NE(r.message.find("ura indicator 1 is "), std::string::npos) << r.message;
      return;
    }
  }
  FAIL() << "no riichi win with ura indicators in the sample";
}

// --- seed strings ---

std::string seed_error(const std::string& seed) {
  try {
    tenhou::parse_shuffle_seed(seed);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(TenhouWallSeed, BadSeedsAreRefusedSayingWhatIsWrong) {
  const std::string prefix(tenhou::kShufflePrefix);
  const std::string good(3328, 'A');  // 2,496 zero bytes: a valid (if unlikely) key
  EXPECT_EQ(seed_error(prefix + good), "");
  EXPECT_NE(seed_error("xorshift," + good).find("unknown generator, expected the prefix 'mt19937ar-sha512-n288-base64,'"),
            std::string::npos);
  EXPECT_NE(seed_error("").find("unknown generator"), std::string::npos);
  EXPECT_NE(seed_error("mt19937ar-sha512-n288,F1504633,6450BD98").find("older hex form"), std::string::npos);
  std::string bad_char = prefix + good;
  bad_char[prefix.size() + 99] = '*';
  EXPECT_NE(seed_error(bad_char).find("'*' at base64 character 100 is not a base64 character"), std::string::npos)
      << seed_error(bad_char);
  EXPECT_NE(seed_error(prefix + "\"" + good + "\"").find("'\"' at base64 character 1"), std::string::npos);
  EXPECT_NE(seed_error(prefix + good.substr(0, 3327)).find("3327 base64 characters, not a multiple of 4"), std::string::npos);
  EXPECT_NE(seed_error(prefix + good.substr(0, 3324)).find("2493 bytes after base64 decoding, expected 2496 (624 32-bit words)"),
            std::string::npos)
      << seed_error(prefix + good.substr(0, 3324));
  EXPECT_NE(seed_error(prefix + good + "AAAA").find("2499 bytes"), std::string::npos);
  EXPECT_NE(seed_error(prefix + good.substr(0, 3326) + "B=").find("bits set beyond the data"), std::string::npos);
}

TEST(TenhouWallSeed, ABadSeedInALogIsAReadErrorNamingTheFile) {
  const std::string xml = std::string("<mjloggm ver=\"2.3\"><SHUFFLE seed=\"") + std::string(tenhou::kShufflePrefix) +
                          "abc*\" ref=\"\"/><GO type=\"169\"/></mjloggm>";
  try {
    parse_tenhou_xml(xml, "bad_seed.xml");
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("bad_seed.xml: <SHUFFLE>: SHUFFLE seed: '*' at base64 character 4"), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace hydra::data
