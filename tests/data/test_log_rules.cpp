// Tenhou's rules by era and lobby (docs/RULES.md, "Tenhou's rules by era"). The rules of a log are
// picked from its lobby type and date (unit tests of the choice), and the real Houou logs of each
// era replay under them, checked against what the logs themselves record: in March 2009 an
// all-last dealer who is tenpai and top with >= 30,000 played on and a tonpuusen's extension went
// past South 4 into the West round; tables without red fives (GO types 163, 167, 171) count no
// red dora; in January 2022 the dealer's tenpai ends the game (tenpai-yame).

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "hydra/data/convert.hpp"
#include "hydra/data/dataset.hpp"
#include "hydra/data/log_rules.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/data/replay.hpp"
#include "hydra/data/tenhou.hpp"
#include "hydra/data/text_file.hpp"
#include "hydra/game/kyoku.hpp"
#include "testdata.hpp"
#include "hydra/common/index.hpp"

namespace hydra::data {
namespace {

namespace fs = std::filesystem;
using game::EventType;

// ---------------------------------------------------------------------------------------------
// The choice itself.

TEST(LogRules, LobbyTypeAndDatePickTheRules) {
  const std::int64_t march_2009 = 2009030422, january_2022 = 2022010102;
  // The lobbies of the Houou corpus (docs/RULES.md lists the bits).
  EXPECT_EQ(tenhou_rules_name(225, march_2009), "tenhou-2009-tonpuusen");  // 0xE1: houou, fast, tonpuusen
  EXPECT_EQ(tenhou_rules_name(169, march_2009), "tenhou-2009");            // 0xA9: houou, hanchan
  EXPECT_EQ(tenhou_rules_name(163, march_2009), "tenhou-2009-tonpuusen+no-red");
  EXPECT_EQ(tenhou_rules_name(167, march_2009), "tenhou-2009-tonpuusen+no-red+no-kuitan");
  EXPECT_EQ(tenhou_rules_name(171, march_2009), "tenhou-2009+no-red");
  EXPECT_EQ(tenhou_rules_name(225, january_2022), "tenhou-tonpuusen");
  EXPECT_EQ(tenhou_rules_name(169, january_2022), "tenhou");
  EXPECT_EQ(tenhou_rules_name(41, january_2022), "tenhou");  // 0x29: tokujou hanchan
  EXPECT_EQ(tenhou_rules_name(161, std::nullopt), "tenhou-tonpuusen");  // no date: today's rules
  EXPECT_EQ(tenhou_rules_name(169, std::nullopt), "tenhou");
  // The cutoff: the first hour of April 2009.
  EXPECT_EQ(kTenhou2009RulesUntil, 2009040100);
  EXPECT_EQ(tenhou_rules_name(169, 2009033123), "tenhou-2009");
  EXPECT_EQ(tenhou_rules_name(169, 2009040100), "tenhou");
  EXPECT_EQ(tenhou_rules_name(169, 2010081709), "tenhou");
  // Lobbies without a preset: 3-player (0x10), chips / ratio / custom rules (above 0xFF).
  EXPECT_EQ(tenhou_rules_name(185, march_2009), std::nullopt);
  EXPECT_EQ(tenhou_rules_name(553, january_2022), std::nullopt);
  EXPECT_EQ(tenhou_rules_name(2113, std::nullopt), std::nullopt);
  // Every name is one table_rules() resolves, with the lobby's options.
  const game::TableRules& r = game::table_rules(*tenhou_rules_name(167, march_2009));
  EXPECT_EQ(r.length, game::GameLength::tonpuusen);
  EXPECT_FALSE(r.red_fives);
  EXPECT_FALSE(r.scoring.kuitan);
  EXPECT_FALSE(r.tenpai_yame);
  EXPECT_EQ(r.final_round(), 15);
}

TEST(LogRules, TenhouLogIdsAreFoundInNamesAndUrls) {
  auto id = find_tenhou_log_id("http://tenhou.net/0/?log=2009031010gm-00ab-0000-cbdeff09&tw=0");
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(id->hour, 2009031010);
  EXPECT_EQ(id->type, 0xABu);
  id = find_tenhou_log_id("/data/houou/legacy_2009/2009030921gm-00a3-0000-5a3f6500.mjlog.xml.gz");
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(id->hour, 2009030921);
  EXPECT_EQ(id->type, 163u);
  EXPECT_EQ(find_tenhou_log_id("gimite_test.xml"), std::nullopt);
  EXPECT_EQ(find_tenhou_log_id("2009031010gm-00zz-0000-cbdeff09"), std::nullopt);  // not hex
  EXPECT_EQ(find_tenhou_log_id("09031010gm-00ab-0000-cbdeff09"), std::nullopt);    // 8 digits
  EXPECT_EQ(find_tenhou_log_id("2009031010gm-00ab"), std::nullopt);                 // cut
  // A later id is found when an earlier "gm-" is not one.
  id = find_tenhou_log_id("x-gm-/2022010102gm-00a9-0000-ef9bf74e.json.gz");
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(id->type, 0xA9u);
}

TEST(LogRules, ALogNamesItsRulesByItsLobbyAndItsDate) {
  GameLog log;
  EXPECT_EQ(rules_named_by(log), nullptr);  // nothing to go by
  log.uri = "http://tenhou.net/0/?log=2009030422gm-00e1-0000-34c2314d&tw=0";
  ASSERT_NE(rules_named_by(log), nullptr);
  EXPECT_EQ(rules_named_by(log)->name, "tenhou-2009-tonpuusen");
  log.tenhou_type = 0xE3;  // the mjlog's GO type wins over the id's
  EXPECT_EQ(rules_named_by(log)->name, "tenhou-2009-tonpuusen+no-red");
  log.uri.clear();  // GO type without a date: today's rules
  EXPECT_EQ(rules_named_by(log)->name, "tenhou-tonpuusen+no-red");
  log.tenhou_type = 0xB9;  // 3-player: no preset
  EXPECT_EQ(rules_named_by(log), nullptr);

  GameLog named;
  named.uri = "http://tenhou.net/0/?log=2022010102gm-00a9-0000-ef9bf74e&tw=0";
  GameLog unnamed;
  const RulesChoice fixed(game::table_rules("tenhou-2009"));
  EXPECT_FALSE(fixed.per_log());
  EXPECT_EQ(fixed.of(named).name, "tenhou-2009");  // what the user named, for every log
  EXPECT_EQ(fixed.describe(), "tenhou-2009");
  const RulesChoice per_log = RulesChoice::parse("auto");
  EXPECT_TRUE(per_log.per_log());
  EXPECT_EQ(per_log.of(named).name, "tenhou");
  EXPECT_EQ(per_log.of(unnamed).name, "tenhou");  // the fallback
  EXPECT_EQ(RulesChoice::per_log(game::table_rules("mahjongsoul")).of(unnamed).name, "mahjongsoul");
  EXPECT_EQ(RulesChoice::parse("tenhou-2009-tonpuusen+no-red").of(named).name, "tenhou-2009-tonpuusen+no-red");
  EXPECT_THROW(RulesChoice::parse("wrc"), Error);
}

// ---------------------------------------------------------------------------------------------
// Real logs. The kyoku a log plays, in order ("E4-0", "E4-1", ...), and the payments' scores.

std::string kyoku_name(const game::Event& e) {
  return std::string(game::wind_name(e.bakaze)) + std::to_string(e.kyoku) + "-" + std::to_string(e.honba);
}

std::vector<std::string> kyoku_played(const GameLog& log) {
  std::vector<std::string> out;
  for (const auto& e : log.events)
    if (e.type == EventType::start_kyoku) out.push_back(kyoku_name(e));
  return out;
}

// The result (the last hora or ryukyoku) of the kyoku `name`, and the start of the kyoku after it.
struct KyokuResult {
  const game::Event* start = nullptr;
  const game::Event* result = nullptr;
  const game::Event* next = nullptr;  // the next start_kyoku, or the end_game
};
KyokuResult result_of(const GameLog& log, const std::string& name) {
  KyokuResult r;
  for (const auto& e : log.events) {
    if (e.type == EventType::start_kyoku && r.start) {
      r.next = &e;
      break;
    }
    if (e.type == EventType::end_game && r.start) r.next = &e;
    if (e.type == EventType::start_kyoku && kyoku_name(e) == name) r.start = &e;
    if (r.start && (e.type == EventType::hora || e.type == EventType::ryukyoku)) r.result = &e;
  }
  return r;
}

// The seat ranked first (ties to the seat nearer the first dealer, as Tenhou breaks them).
int top_seat(const game::Scores& s) {
  const auto r = game::ranks(s);
  return static_cast<int>(std::find(r.begin(), r.end(), 0) - r.begin());
}

const RulesChoice& per_log() {
  static const RulesChoice c = RulesChoice::parse("auto");
  return c;
}

// Every March 2009 game in which the all-last dealer was tenpai at the exhaustive draw and top
// with >= 30,000 (the extension's kyoku are all-last too): the log plays the dealer's next honba.
// Under the 2009 rules the whole game passes; under today's it fails there, naming tenpai_yame.
TEST(Tenhou2009, AnAllLastDealerTenpaiAndTopPlaysOn) {
  HYDRA_REQUIRE_TESTDATA(dir, "houou/legacy_2009");
  const std::map<std::string, std::string> cases = {
      {"2009030816gm-00e1-0000-cd82703e", "E4-0"}, {"2009030817gm-00e1-0000-e0894802", "E4-0"},
      {"2009030821gm-00e1-0000-b6b68d37", "E4-0"}, {"2009030921gm-00e1-0000-95e6fe14", "S1-0"},
      {"2009031012gm-00e1-0000-4213d0d8", "S1-2"}, {"2009031015gm-00e1-0000-7d543d25", "E4-0"}};
  for (const auto& [id, kyoku] : cases) {
    SCOPED_TRACE(id);
    const fs::path file = dir / (id + ".mjlog.xml.gz");
    const GameLog log = read_log(file);
    // What the log records: an exhaustive draw, the dealer tenpai and then top with >= 30,000,
    // and the same dealer's next honba after it.
    const KyokuResult k = result_of(log, kyoku);
    ASSERT_TRUE(k.start && k.result && k.next);
    const int oya = k.start->oya.index();
    EXPECT_EQ(k.result->type, EventType::ryukyoku);
    EXPECT_EQ(k.result->reason, game::RyukyokuReason::fanpai);
    EXPECT_TRUE(k.result->tenpais[ix(oya)]);
    EXPECT_EQ(top_seat(k.result->scores), oya);
    EXPECT_GE(k.result->scores[ix(oya)], 30000);
    ASSERT_EQ(k.next->type, EventType::start_kyoku);
    EXPECT_EQ(k.next->oya.index(), oya);
    EXPECT_EQ(k.next->honba, k.start->honba + 1);

    const ReplayReport r = check_file(file, per_log());
    EXPECT_EQ(r.status, ReplayStatus::pass) << r.message;
    EXPECT_EQ(r.rules, "tenhou-2009-tonpuusen");
    const ReplayReport today = check_file(file, game::table_rules("tenhou-tonpuusen"));
    EXPECT_EQ(today.status, ReplayStatus::fail);
    EXPECT_NE(today.message.find("start_kyoku after the game should have ended (tenhou-tonpuusen): kyoku " +
                                 kyoku_name(*k.next) + " is played, but the game ends after " + kyoku + ": tenpai_yame"),
              std::string::npos)
        << today.message;
  }
}

// The two March 2009 tonpuusen that went past South 4: nobody had 30,000 after South 4, the game
// went on into West 1, and it ended at the end of the first kyoku after which someone had 30,000
// (sudden death), with the final scores the log records. Today's tonpuusen ends after South 4.
TEST(Tenhou2009, ATonpuusenExtendsPastSouth4IntoTheWest) {
  HYDRA_REQUIRE_TESTDATA(dir, "houou/legacy_2009");
  struct Case {
    std::string id, south4, west1;
    game::Scores final_scores;
  };
  const std::vector<Case> cases = {{"2009030812gm-00e1-0000-270195f3", "S4-0", "W1-1", {15800, 27300, 25800, 31100}},
                                   {"2009031016gm-00e1-0000-74513f2c", "S4-1", "W1-0", {33600, 25200, 24800, 16400}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.id);
    const fs::path file = dir / (c.id + ".mjlog.xml.gz");
    const GameLog log = read_log(file);
    const std::vector<std::string> played = kyoku_played(log);
    ASSERT_GE(played.size(), 2u);
    EXPECT_EQ(played[played.size() - 2], c.south4);
    EXPECT_EQ(played.back(), c.west1);
    // After every kyoku from East 4 on but the last, nobody had 30,000 or the dealer kept the deal.
    const KyokuResult s4 = result_of(log, c.south4);
    ASSERT_TRUE(s4.result);
    EXPECT_LT(*std::max_element(s4.result->scores.begin(), s4.result->scores.end()), 30000);
    const KyokuResult w1 = result_of(log, c.west1);
    ASSERT_TRUE(w1.result && w1.next);
    EXPECT_GE(*std::max_element(w1.result->scores.begin(), w1.result->scores.end()), 30000);
    EXPECT_EQ(w1.next->type, EventType::end_game);
    EXPECT_EQ(w1.next->scores, c.final_scores);

    const ReplayReport r = check_file(file, per_log());
    EXPECT_EQ(r.status, ReplayStatus::pass) << r.message;
    EXPECT_EQ(r.rules, "tenhou-2009-tonpuusen");
    const ReplayReport today = check_file(file, game::table_rules("tenhou-tonpuusen"));
    EXPECT_EQ(today.status, ReplayStatus::fail);
    EXPECT_NE(today.message.find("kyoku " + c.west1 + " is played, but the game ends after " + c.south4 +
                                 ": final round (the last kyoku the rules have)"),
              std::string::npos)
        << today.message;
  }
}

// The March 2009 tables without red fives: their fives with Tenhou ids 16, 52 and 88 are plain,
// every win's value is Tenhou's without red dora, and the whole game passes. Read as a lobby with
// red fives (the same log with the GO type's 0x02 bit cleared), a win that holds one of those
// tiles counts a red dora that Tenhou did not pay, and the check fails there.
TEST(Tenhou2009, TablesWithoutRedFivesPlayPlainFives) {
  HYDRA_REQUIRE_TESTDATA(dir, "houou/legacy_2009");
  const std::map<std::string, std::string> cases = {
      {"2009030921gm-00a3-0000-5a3f6500", "tenhou-2009-tonpuusen+no-red"},
      {"2009030922gm-00a7-0000-787eb9a8", "tenhou-2009-tonpuusen+no-red+no-kuitan"},
      {"2009030921gm-00ab-0000-0213f08f", "tenhou-2009+no-red"},
      {"2009030922gm-00ab-0000-8fc38227", "tenhou-2009+no-red"},
      {"2009031010gm-00ab-0000-cbdeff09", "tenhou-2009+no-red"}};
  for (const auto& [id, rules] : cases) {
    SCOPED_TRACE(id);
    const fs::path file = dir / (id + ".mjlog.xml.gz");
    const std::string xml = read_text_file(file);
    const GameLog log = parse_tenhou_xml(xml, file.string());
    ASSERT_TRUE(log.tenhou_type.has_value());
    EXPECT_TRUE(*log.tenhou_type & 0x02);
    int fives = 0, horas = 0;
    for (const auto& e : log.events) {
      for (const auto& hand : e.tehais)
        for (game::Pai p : hand) {
          EXPECT_FALSE(p.is_red());
          fives += p.type().is_five();
        }
      EXPECT_FALSE(e.pai.is_red());
      if (e.type == EventType::hora) {
        ++horas;
        for (const auto& y : e.yakus) EXPECT_NE(y.yaku, game::MjaiYaku::akadora);  // Tenhou's own result
      }
    }
    EXPECT_GT(fives, 0);
    EXPECT_GT(horas, 0);
    const ReplayReport r = check_file(file, per_log());
    EXPECT_EQ(r.status, ReplayStatus::pass) << r.message;
    EXPECT_EQ(r.rules, rules);
    // The same game as a lobby with red fives.
    const std::string go = "<GO type=\"" + std::to_string(*log.tenhou_type) + "\"";
    std::string red_xml = xml;
    ASSERT_NE(red_xml.find(go), std::string::npos);
    red_xml.replace(red_xml.find(go), go.size(), "<GO type=\"" + std::to_string(*log.tenhou_type & ~0x02u) + "\"");
    const GameLog red = parse_tenhou_xml(red_xml, file.string());
    const ReplayReport wrong = check_game(red, per_log().of(red), "red");
    EXPECT_EQ(wrong.status, ReplayStatus::fail);
    EXPECT_NE(wrong.message.find("hora: yaku"), std::string::npos) << wrong.message;
    EXPECT_NE(wrong.message.find("akadora"), std::string::npos) << wrong.message;
  }
}

// Every January 2022 game in which the all-last dealer was tenpai at the exhaustive draw and top
// with >= 30,000: the log ends there (tenpai-yame), with the final scores it records. Under the
// 2009 rules the same log ends too early.
TEST(Tenhou2022, TenpaiYameEndsTheGame) {
  HYDRA_REQUIRE_TESTDATA(dir, "houou/hanchan_2022");
  const std::map<std::string, std::string> cases = {
      {"2022010115gm-00a9-0000-ab4d3702", "S4-2"}, {"2022010309gm-00a9-0000-b4ab411c", "S4-0"},
      {"2022010322gm-00a9-0000-3027e69b", "S4-0"}, {"2022010421gm-00a9-0000-ba8a314e", "S4-0"},
      {"2022010908gm-00a9-0000-3023a4e4", "S4-0"}, {"2022010915gm-00a9-0000-ea7ba4f7", "S4-0"},
      {"2022011221gm-00a9-0000-f95cddfb", "S4-0"}};
  for (const auto& [id, kyoku] : cases) {
    SCOPED_TRACE(id);
    const fs::path file = dir / (id + ".mjlog.xml.gz");
    const GameLog log = read_log(file);
    EXPECT_EQ(kyoku_played(log).back(), kyoku);
    const KyokuResult k = result_of(log, kyoku);
    ASSERT_TRUE(k.start && k.result && k.next);
    const int oya = k.start->oya.index();
    EXPECT_EQ(k.result->type, EventType::ryukyoku);
    EXPECT_TRUE(k.result->tenpais[ix(oya)]);
    EXPECT_EQ(top_seat(k.result->scores), oya);
    EXPECT_GE(k.result->scores[ix(oya)], 30000);
    ASSERT_EQ(k.next->type, EventType::end_game);  // Tenhou's owari right after the draw
    EXPECT_EQ(top_seat(k.next->scores), oya);

    const ReplayReport r = check_file(file, per_log());
    EXPECT_EQ(r.status, ReplayStatus::pass) << r.message;
    EXPECT_EQ(r.rules, "tenhou");
    const ReplayReport old = check_file(file, game::table_rules("tenhou-2009"));
    EXPECT_EQ(old.status, ReplayStatus::fail);
    EXPECT_NE(old.message.find("game ends too early: the log ends after " + kyoku +
                               ", but under the rules 'tenhou-2009' the game goes on to"),
              std::string::npos)
        << old.message;
    EXPECT_NE(old.message.find("(the dealer's renchan: tenpai_yame is off)"), std::string::npos) << old.message;
  }
}

// Whole folders: every game of each era passes under the rules its lobby and date name.
TEST(HououCorpus, EveryGamePassesUnderTheRulesOfItsLobbyAndDate) {
  HYDRA_REQUIRE_TESTDATA(root, "houou");
  const std::map<std::string, std::map<std::string, int>> expected = {
      {"legacy_2009",
       {{"tenhou-2009-tonpuusen", 684}, {"tenhou-2009", 12}, {"tenhou-2009+no-red", 3},
        {"tenhou-2009-tonpuusen+no-red", 1}, {"tenhou-2009-tonpuusen+no-red+no-kuitan", 1}}},
      {"hanchan_2022", {{"tenhou", 1206}}},
      {"tonpuu_2022", {{"tenhou-tonpuusen", 280}}}};
  for (const auto& [folder, per_rules] : expected) {
    SCOPED_TRACE(folder);
    if (!fs::exists(root / folder)) GTEST_SKIP() << root / folder << " not found: real-data test skipped";
    std::map<std::string, int> seen;
    for (const fs::path& f : collect_log_files({root / folder})) {
      const ReplayReport r = check_file(f, per_log());
      EXPECT_EQ(r.status, ReplayStatus::pass) << r.message;
      ++seen[r.rules];
    }
    EXPECT_EQ(seen, per_rules);
  }
}

// convert and the pretraining dataset go by each log's rules too: a 2009 table without red fives
// converts to mjai whose log id still names the table (and replays under its rules), and a
// dataset of a 2009 game that plays on after the dealer's tenpai and a 2022 game reads both.
TEST(LogRules, ConvertAndTheDatasetUseEachLogsRules) {
  HYDRA_REQUIRE_TESTDATA(dir, "houou");
  const fs::path tmp = fs::temp_directory_path() / ("hydra_test_log_rules_" + std::to_string(::getpid()));
  fs::create_directories(tmp / "logs");
  fs::create_directories(tmp / "out");
  const fs::path no_red = dir / "legacy_2009/2009031010gm-00ab-0000-cbdeff09.mjlog.xml.gz";
  const ConvertResult c = convert_file(no_red, tmp / "out");
  EXPECT_EQ(c.status, ConvertResult::Status::ok) << c.message;
  EXPECT_EQ(c.rules, "tenhou-2009+no-red");
  const GameLog mjai = read_log(c.output);
  EXPECT_EQ(rules_named_by(mjai)->name, "tenhou-2009+no-red");
  const ReplayReport r = check_file(c.output, per_log());
  EXPECT_EQ(r.status, ReplayStatus::pass) << r.message;
  EXPECT_EQ(r.rules, "tenhou-2009+no-red");

  fs::copy_file(dir / "legacy_2009/2009030816gm-00e1-0000-cd82703e.mjlog.xml.gz",
                tmp / "logs/2009030816gm-00e1-0000-cd82703e.mjlog.xml.gz");
  fs::copy_file(dir / "hanchan_2022/2022010309gm-00a9-0000-b4ab411c.mjlog.xml.gz",
                tmp / "logs/2022010309gm-00a9-0000-b4ab411c.mjlog.xml.gz");
  DatasetOptions o;
  o.inputs = {(tmp / "logs").string()};
  o.validation = true;
  o.val_fraction = 1.0;
  o.repeat = false;
  o.augment = false;
  o.shuffle_buffer = 64;
  Dataset ds(o);
  SampleBatch batch;
  std::size_t samples = 0;
  while (const std::size_t n = ds.next(batch, 256)) samples += n;
  const DatasetReport rep = ds.report();
  EXPECT_TRUE(rep.bad.empty()) << (rep.bad.empty() ? "" : rep.bad[0].reason);
  EXPECT_EQ(rep.files_read, 2);
  EXPECT_GT(samples, 0u);
  EXPECT_EQ(rep.files_per_rules, (std::map<std::string, std::int64_t>{{"tenhou", 1}, {"tenhou-2009-tonpuusen", 1}}));
  fs::remove_all(tmp);
}

}  // namespace
}  // namespace hydra::data
