// The replay checker against real Tenhou games (every event legal, every payment and score
// exact) and against broken input (each problem reported with its file and line, never a crash).

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "hydra/data/convert.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/data/replay.hpp"
#include "hydra/data/text_file.hpp"
#include "hydra/game/agent.hpp"
#include "hydra/game/runner.hpp"
#include "testdata.hpp"

namespace hydra::data {
namespace {

namespace fs = std::filesystem;

const game::TableRules& tenhou() { return game::table_rules("tenhou"); }

struct Tally {
  int files = 0, pass = 0, horas = 0, decisions = 0;
};

Tally check_all(const fs::path& dir, const std::vector<std::string>& expected_failures = {}) {
  Tally t;
  for (const auto& f : collect_log_files({dir})) {
    const ReplayReport r = check_file(f, tenhou());
    ++t.files;
    const bool expected_fail =
        std::find(expected_failures.begin(), expected_failures.end(), f.filename().string()) != expected_failures.end();
    if (!expected_fail) {
      EXPECT_EQ(r.status, ReplayStatus::pass) << r.message;
    }
    t.pass += r.status == ReplayStatus::pass;
    t.horas += r.horas;
    t.decisions += r.decisions;
  }
  return t;
}

TEST(Replay, AllMjaiGamesPass) {
  HYDRA_REQUIRE_TESTDATA(dir, "mjai");
  const Tally t = check_all(dir);
  EXPECT_EQ(t.files, 34);
  EXPECT_EQ(t.pass, 34);
  EXPECT_GT(t.horas, 250);
  EXPECT_GT(t.decisions, 10000);
}

TEST(Replay, AllTenhouXmlGamesPass) {
  HYDRA_REQUIRE_TESTDATA(dir, "tenhou_xml");
  const Tally t = check_all(dir);
  EXPECT_EQ(t.files, 34);
  EXPECT_EQ(t.pass, 34);
}

// Two of mjai-reviewer's fixtures (made in the tenhou.net/6 editor: default or empty names, and in
// _2 a result header [1,0,0] that names seat 1 the winner from seat 0 while its deltas pay seat 2)
// pay a ron without the riichi stick declared earlier in the same kyoku. In both the declaration
// tile passed (in _1 the declarer drew again; in _2 it was called by pon, which does not stop the
// riichi), so under Tenhou's rules the stick is on the table and goes to the winner; every real
// Tenhou log in the data (tenhou_xml/, mjai/, the ranked games here) pays it. The engine must
// differ from these two logs by exactly that one stick and nothing else.
TEST(Replay, Tenhou6GamesPassExceptTwoFixturesThatDropTheRiichiStick) {
  HYDRA_REQUIRE_TESTDATA(dir, "tenhou6");
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"reviewer_confusing_nakis_1.json", ":85: seat 0 hora: deltas [1600,0,-1600,0], engine [2600,0,-1600,0]"},
      {"reviewer_confusing_nakis_2.json", ":37: seat 2 hora: deltas [-3200,0,3200,0], engine [-3200,0,4200,0]"}};
  const Tally t = check_all(dir, {bad[0].first, bad[1].first});
  EXPECT_EQ(t.files, 45);
  EXPECT_EQ(t.pass, 43);
  for (const auto& [name, difference] : bad) {
    const ReplayReport r = check_file(dir / name, tenhou());
    EXPECT_EQ(r.status, ReplayStatus::fail);
    EXPECT_NE(r.message.find(name + difference), std::string::npos) << r.message;
  }
}

// Every game under other rules is refused with a reason that names the rule (the truncated log
// is named as truncated): Tenhou XML by its lobby flags, mjai (which has no rule flags) by its
// start scores or by the one scoring key that reproduces the log's value.
TEST(Replay, OtherRulesAreRefusedNamingTheRule) {
  HYDRA_REQUIRE_TESTDATA(dir, "other_rules");
  const std::map<std::string, std::string> reasons = {
      {"dnovikoff_chip.mjson", ":86: seat 0 hora: points 12000, engine 11700 (4 han 30 fu): the log's value is the one "
                               "with scoring.kiriage_mangan true, a rule the rules 'tenhou' do not have"},
      {"dnovikoff_ratio1.mjson", ":239: seat 2 hora: points 8000, engine 7900 (4 han 30 fu): the log's value is the one "
                                 "with scoring.kiriage_mangan true"},
      {"dnovikoff_newattr2023.mjson", "as if the game had started at 30000 each: unsupported rule: start scores"},
      {"dnovikoff_sanma.mjson", "as if the game had started at 1000 each: unsupported rule: start scores"},
      {"dnovikoff_ratio.mjson", "unsupported rule: start scores [1000,1000,1000,1000]: the rules 'tenhou' start every player at 25000"},
      {"dnovikoff_chip.xml", "unsupported rule: chip, ratio or custom lobby rules (GO type 553)"},
      {"dnovikoff_newattr2023.xml", "unsupported rule: chip, ratio or custom lobby rules (GO type 257)"},
      {"dnovikoff_ratio.xml", "unsupported rule: chip, ratio or custom lobby rules (GO type 2113)"},
      {"dnovikoff_ratio1.xml", "unsupported rule: chip, ratio or custom lobby rules (GO type 1569)"},
      {"dnovikoff_sanma.xml", "unsupported rule: chip, ratio or custom lobby rules (GO type 2113)"},
      {"dnovikoff_sanma2.xml", "unsupported rule: 3-player (sanma) (GO type 185)"},
      {"mjx_upd-aft-ron3.xml", "the log ends before the end of the game (no 'owari' result): truncated log?"}};
  int files = 0;
  for (const auto& f : collect_log_files({dir})) {
    ++files;
    const ReplayReport r = check_file(f, tenhou());
    EXPECT_NE(r.status, ReplayStatus::pass) << f;
    const auto reason = reasons.find(f.filename().string());
    ASSERT_NE(reason, reasons.end()) << f;
    EXPECT_NE(r.message.find(reason->second), std::string::npos) << r.message;
    EXPECT_EQ(r.message.find("unsupported rule") != std::string::npos, r.status == ReplayStatus::skipped) << r.message;
  }
  EXPECT_EQ(files, 12);
}

// The end of the game is checked: a log whose source records its end must end exactly where the
// rules end it. Real games, cut or checked under rules that end them elsewhere.
GameLog without_kyoku_from(GameLog log, int first_dropped) {
  int k = 0;
  std::size_t cut = log.events.size(), end = log.events.size() - 1;
  for (std::size_t i = 0; i < log.events.size(); ++i)
    if (log.events[i].type == game::EventType::start_kyoku && k++ == first_dropped) cut = i;
  log.events.erase(log.events.begin() + static_cast<std::ptrdiff_t>(cut), log.events.begin() + static_cast<std::ptrdiff_t>(end));
  return log;
}

TEST(ReplayGameEnd, ALogThatStopsBeforeTheRulesEndTheGameFails) {
  // South 4: the dealer wins and is top with 38,900: agari-yame ends the game there.
  HYDRA_REQUIRE_TESTDATA(file, "mjai/2010081709gm-00a9-0000-fe3371ad.json.gz");
  const GameLog log = read_mjai(file);
  EXPECT_EQ(check_game(log, tenhou(), "g").status, ReplayStatus::pass);
  int kyoku = 0;
  for (const auto& e : log.events) kyoku += e.type == game::EventType::start_kyoku;
  const ReplayReport early = check_game(without_kyoku_from(log, kyoku - 1), tenhou(), "g");
  EXPECT_EQ(early.status, ReplayStatus::fail);
  EXPECT_NE(early.message.find("game ends too early: the log ends after S3-1, but under the rules 'tenhou' the game goes on "
                               "to S4-0 (not yet all-last)"),
            std::string::npos)
      << early.message;
  game::TableRules no_yame = tenhou();
  no_yame.name = "no-agari-yame";
  no_yame.agari_yame = false;
  const ReplayReport yame = check_game(log, no_yame, "g");
  EXPECT_EQ(yame.status, ReplayStatus::fail);
  EXPECT_NE(yame.message.find("the game goes on to S4-1 (the dealer's renchan: agari_yame is off)"), std::string::npos)
      << yame.message;
}

TEST(ReplayGameEnd, ALogThatGoesOnAfterTheRulesEndTheGameFails) {
  // A real game that went into the West round, checked under rules without the extension.
  HYDRA_REQUIRE_TESTDATA(file, "mjai/2020060723gm-00a9-0000-58807e27.json.gz");
  const GameLog log = read_mjai(file);
  EXPECT_EQ(check_game(log, tenhou(), "g").status, ReplayStatus::pass);
  game::TableRules no_west = tenhou();
  no_west.name = "no-west";
  no_west.extension_rounds = 0;
  const ReplayReport late = check_game(log, no_west, "g");
  EXPECT_EQ(late.status, ReplayStatus::fail);
  EXPECT_NE(late.message.find("start_kyoku after the game should have ended (no-west): kyoku W1-"), std::string::npos) << late.message;
  EXPECT_NE(late.message.find(": final round (the last kyoku the rules have)"), std::string::npos) << late.message;
}

// The views take start_kyoku's scores (a host may send no hora or ryukyoku), but the checker
// still holds them to the running totals.
TEST(ReplayGameEnd, StartScoresThatDisagreeWithTheRunningTotalsFail) {
  HYDRA_REQUIRE_TESTDATA(file, "mjai/2010081709gm-00a9-0000-fe3371ad.json.gz");
  GameLog log = read_mjai(file);
  int k = 0;
  for (auto& e : log.events)
    if (e.type == game::EventType::start_kyoku && ++k == 2) {
      e.scores[0] += 1000;
      e.scores[1] -= 1000;
    }
  const ReplayReport r = check_game(log, tenhou(), "g");
  EXPECT_EQ(r.status, ReplayStatus::fail);
  EXPECT_NE(r.message.find(": start scores ["), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("], expected ["), std::string::npos) << r.message;
}

// Only logs partial by construction may stop anywhere: a single kyoku, or a tenhou.net/6 file
// without its final result.
TEST(ReplayGameEnd, PartialByConstructionIsReportedAsPartial) {
  HYDRA_REQUIRE_TESTDATA(file, "mjai/2010081709gm-00a9-0000-fe3371ad.json.gz");
  const ReplayReport one = check_game(without_kyoku_from(read_mjai(file), 1), tenhou(), "g");
  EXPECT_EQ(one.status, ReplayStatus::pass) << one.message;
  EXPECT_NE(one.message.find("partial game: the log ends after E1-0, but under the rules 'tenhou' the game goes on"),
            std::string::npos)
      << one.message;
  HYDRA_REQUIRE_TESTDATA(fixture, "tenhou6/reviewer_chankan.json");
  const ReplayReport r = check_file(fixture, tenhou());
  EXPECT_EQ(r.status, ReplayStatus::pass) << r.message;
  EXPECT_NE(r.message.find("partial game"), std::string::npos) << r.message;
}

// The first seeded random-play game (tenhou rules, random agents in every seat) for which
// `found` holds, among the first `limit`.
std::optional<game::GameResult> first_game(const game::TableRules& rules, int limit,
                                           const std::function<bool(const game::GameResult&)>& found) {
  std::array<game::RandomAgent, game::kNumSeats> agents;
  for (int i = 0; i < limit; ++i) {
    game::GameResult r = game::play_game(rules, game::game_key(game::MasterSeed{2026}, static_cast<std::uint64_t>(i)),
                                         {&agents[0], &agents[1], &agents[2], &agents[3]});
    if (found(r)) return r;
  }
  return std::nullopt;
}

GameLog log_of(const game::GameResult& r) {
  GameLog log;
  log.names = {"a", "b", "c", "d"};
  log.events = r.events;
  return log;
}

// Games played with tenpai-yame off go on where Tenhou ends them; under the tenhou rules the
// check names the kyoku and tenpai_yame.
TEST(ReplayGameEnd, TenpaiYameIsChecked) {
  game::TableRules old_rules = tenhou();
  old_rules.name = "tenhou-without-tenpai-yame";
  old_rules.tenpai_yame = false;
  const auto game = first_game(old_rules, 20000, [](const game::GameResult& r) {
    return check_game(log_of(r), tenhou(), "g").message.find("tenpai_yame") != std::string::npos;
  });
  ASSERT_TRUE(game.has_value()) << "no random game went on past a tenpai-yame end";
  EXPECT_EQ(check_game(log_of(*game), old_rules, "g").status, ReplayStatus::pass);
  const ReplayReport r = check_game(log_of(*game), tenhou(), "g");
  EXPECT_EQ(r.status, ReplayStatus::fail);
  EXPECT_NE(r.message.find("start_kyoku after the game should have ended (tenhou): kyoku "), std::string::npos) << r.message;
  EXPECT_NE(r.message.find(": tenpai_yame (all-last: the dealer is tenpai at the exhaustive draw and top with >= "
                           "target_score)"),
            std::string::npos)
      << r.message;
}

// RiichiEnv's (0.4.11) and Mortal's mjai dialect: hora without `pai`, RiichiEnv's ryukyoku
// reasons, end_game without scores, hora/ryukyoku with deltas only.
std::string riichienv_dialect(const GameLog& log) {
  std::string out;
  std::istringstream in(to_mjai_text(log));
  for (std::string line; std::getline(in, line);) {
    nlohmann::json j = nlohmann::json::parse(line);
    const std::string type = j["type"];
    if (type == "hora")
      for (const char* k : {"pai", "scores", "hora_tehais", "yakus", "fu", "fan", "hora_points"}) j.erase(k);
    if (type == "ryukyoku") {
      for (const char* k : {"scores", "tenpais", "tehais"}) j.erase(k);
      const std::map<std::string, std::string> names = {{"fanpai", "exhaustive_draw"},       {"kyushukyuhai", "kyushu_kyuhai"},
                                                        {"suchareach", "suucha_riichi"},     {"sufonrenta", "sufuurenta"},
                                                        {"sukaikan", "suukansansen"},        {"nagashimangan", "nagashimangan"},
                                                        {"sanchaho", "sanchaho"}};
      j["reason"] = names.at(j["reason"].get<std::string>());
    }
    if (type == "reach_accepted")
      for (const char* k : {"deltas", "scores"}) j.erase(k);
    if (type == "end_game") j.erase("scores");
    out += j.dump() + "\n";
  }
  return out;
}

// A game that ends with riichi sticks on the table, written in RiichiEnv's dialect: every hora's
// winning tile and every ryukyoku reason read back as the table wrote them, the final scores give
// the sticks to the top player (by hand: the running scores plus 1,000 per stick on that seat),
// and the whole game passes the check.
TEST(ReplayDialects, RiichiEnvLogsReadAndPass) {
  const auto game = first_game(tenhou(), 20000, [](const game::GameResult& r) {
    int sticks = 0;
    for (const auto& e : r.events) {
      if (e.type == game::EventType::reach_accepted) ++sticks;
      if (e.type == game::EventType::hora) sticks = 0;
    }
    return sticks > 0;
  });
  ASSERT_TRUE(game.has_value()) << "no random game ended with sticks on the table";
  const GameLog original = log_of(*game);
  const fs::path file = fs::temp_directory_path() / ("hydra_riichienv_" + std::to_string(::getpid()) + ".mjson");
  std::ofstream(file, std::ios::binary) << riichienv_dialect(original);
  const GameLog read = read_mjai(file);
  const ReplayReport r = check_file(file, tenhou());
  fs::remove(file);
  EXPECT_EQ(r.status, ReplayStatus::pass) << r.message;
  ASSERT_EQ(read.events.size(), original.events.size());
  int horas = 0, draws = 0;
  for (std::size_t i = 0; i < read.events.size(); ++i) {
    const auto& a = original.events[i];
    const auto& b = read.events[i];
    if (a.type == game::EventType::hora) {
      EXPECT_EQ(b.pai, a.pai) << i;
      ++horas;
    }
    if (a.type == game::EventType::ryukyoku) {
      EXPECT_EQ(b.reason, a.reason) << i;
      ++draws;
    }
  }
  EXPECT_GT(horas + draws, 4);
  EXPECT_FALSE(read.final_scores_recorded);
  int sticks = 0;
  game::Scores running{};
  for (const auto& e : original.events) {
    if (e.type == game::EventType::reach_accepted) ++sticks;
    if (e.type == game::EventType::hora) sticks = 0;
    if (e.type == game::EventType::reach_accepted || e.type == game::EventType::hora || e.type == game::EventType::ryukyoku)
      running = e.scores;
  }
  const auto rank = game::ranks(running);
  for (std::size_t p = 0; p < running.size(); ++p)
    EXPECT_EQ(read.events.back().scores[p], running[p] + (rank[p] == 0 ? 1000 * sticks : 0)) << p;
  EXPECT_EQ(read.events.back().scores, game->final_scores);
}

class ReplayBrokenInput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("hydra_replay_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const std::string& bytes) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }
  fs::path dir_;
};

TEST_F(ReplayBrokenInput, EachProblemNamesFileAndLineAndTheOthersAreStillChecked) {
  HYDRA_REQUIRE_TESTDATA(src, "mjai/2019021004gm-00a9-0000-e2f6516d.json.gz");
  const std::string text = to_mjai_text(read_mjai(src));
  write("a_good.json", text);
  write("b_corrupt.json.gz", gzip_compress(text).substr(0, 200) + std::string(64, 'x'));
  write("c_truncated.json", text.substr(0, text.size() / 2));
  std::string broken = text;
  broken.insert(broken.find("\"tsumo\""), "{{");
  write("d_broken_json.json", broken);
  // The dealer's first discard replaced by a tile it does not hold (the red 5s).
  std::string illegal = text;
  const std::size_t d = illegal.find("{\"type\":\"dahai\"");
  const std::size_t pai = illegal.find("\"pai\":\"", d) + 7;
  illegal.replace(pai, illegal.find('"', pai) - pai, "5sr");
  write("e_illegal.json", illegal);

  const auto files = collect_log_files({dir_});
  ASSERT_EQ(files.size(), 5U);
  std::vector<ReplayReport> r;
  for (const auto& f : files) r.push_back(check_file(f, tenhou()));
  EXPECT_EQ(r[0].status, ReplayStatus::pass) << r[0].message;
  for (std::size_t i = 1; i < r.size(); ++i) {
    EXPECT_NE(r[i].status, ReplayStatus::pass) << r[i].file;
    EXPECT_NE(r[i].message.find(files[i].filename().string()), std::string::npos) << r[i].message;
  }
  EXPECT_EQ(r[1].status, ReplayStatus::error);
  EXPECT_EQ(r[2].status, ReplayStatus::error);
  EXPECT_EQ(r[3].status, ReplayStatus::error);
  EXPECT_NE(r[3].message.find("d_broken_json.json:3:"), std::string::npos) << r[3].message;  // the first tsumo
  EXPECT_EQ(r[4].status, ReplayStatus::fail);
  const std::string line = std::to_string(std::count(illegal.begin(), illegal.begin() + static_cast<std::ptrdiff_t>(d), '\n') + 1);
  EXPECT_NE(r[4].message.find("e_illegal.json:" + line + ": illegal dahai by seat"), std::string::npos) << r[4].message;
}

}  // namespace
}  // namespace hydra::data
