// External mjai bots as agents (external_agent.hpp): commands split as a shell does, processes
// with deadlines, and whole duplicate evaluations through a bot process. The process is
// tests/cli/fault_bot.py: in mode "ok" it discards every tile it draws and passes everything
// else, so it must play exactly as the in-process TsumogiriPasser below (the independent truth);
// in the fault modes every game it plays must be void and reported, and the run must finish.

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>

#include "hydra/common/error.hpp"
#include "hydra/selfplay/duplicate.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/eval_report.hpp"
#include "hydra/selfplay/external_agent.hpp"
#include "hydra/selfplay/process.hpp"

namespace hydra::selfplay {
namespace {

using namespace std::chrono_literals;

TEST(SplitCommand, ShellWords) {
  EXPECT_EQ(split_command("python3 'my bot.py' --x \"a b\" c\\ d"),
            (std::vector<std::string>{"python3", "my bot.py", "--x", "a b", "c d"}));
  EXPECT_THROW((void)split_command("bot $(rm -rf /)"), Error);
  EXPECT_THROW((void)split_command("bot 'unbalanced"), Error);
  EXPECT_THROW((void)split_command("bot | tee x"), Error);
  EXPECT_THROW((void)split_command("   "), Error);
}

TEST(ExternalSpec, Prefixes) {
  EXPECT_EQ(parse_external("mjai:bot {seat}")->flavour, MjaiFlavour::classic);
  EXPECT_EQ(parse_external("mjai.app:bot {seat}")->flavour, MjaiFlavour::app);
  EXPECT_EQ(parse_external("mjai.app:bot {seat}")->command, "bot {seat}");
  EXPECT_FALSE(parse_external("bot:greedy"));
  ExternalAgents agents({}, game::table_rules("tenhou"));
  EXPECT_EQ(agents.words(*parse_external("mjai:python3 'a b.py' --seat={seat} {seat}"), game::Seat(2)),
            (std::vector<std::string>{"python3", "a b.py", "--seat=2", "2"}));
  // Other braces are plain characters (a bridge's own placeholder), quoted or not.
  EXPECT_EQ(agents.words(*parse_external("mjai:bridge -- bot --connect {port} '{x}' \"a\\\"{y}\" {seat}"), game::Seat(1)),
            (std::vector<std::string>{"bridge", "--", "bot", "--connect", "{port}", "{x}", "a\"{y}", "1"}));
}

TEST(BotProcess, LinesExitAndDeadlines) {
  const auto log = std::filesystem::temp_directory_path() / "hydra_test_bot_process.log";
  {
    BotProcess p({"sh", "-c", "read x; echo \"got $x\"; echo oops >&2; exit 4"}, log);
    const auto deadline = BotProcess::Clock::now() + 60s;  // not under test: no load may miss it
    ASSERT_EQ(p.write_line("hello", deadline), BotProcess::Status::ok);
    std::string line;
    ASSERT_EQ(p.read_line(line, deadline), BotProcess::Status::ok);
    EXPECT_EQ(line, "got hello");
    EXPECT_EQ(p.read_line(line, deadline), BotProcess::Status::closed);
    for (int i = 0; i < 30000 && p.running(); ++i) std::this_thread::sleep_for(2ms);
    EXPECT_EQ(p.exit_description(), "exited with status 4");
  }
  {
    BotProcess p({"sleep", "30"}, log);
    std::string line;
    const auto t0 = BotProcess::Clock::now();
    EXPECT_EQ(p.read_line(line, t0 + 100ms), BotProcess::Status::timeout);  // sleep 30 misses it by 29.9 s
    EXPECT_LT(BotProcess::Clock::now() - t0, 20s);
    EXPECT_TRUE(p.running());
    p.kill();
    EXPECT_FALSE(p.running());
  }
  EXPECT_THROW(BotProcess({"/no/such/program"}, log), Error);
}

// Plays as fault_bot.py "ok": discards what it draws, passes everything else.
class TsumogiriPasser final : public game::Agent {
 public:
  std::string_view name() const override { return "tsumogiri-passer"; }
  void start_game(game::Seat, const game::GameKey&) override {}
  game::Action act(const game::PlayerView& view, const game::Decision& d) override {
    const game::Action pass(game::Action::kPass);
    if (d.mask.test(pass)) return pass;
    return game::Action::discard(view.last_drawn());
  }
};

EvalOptions options(const std::string& challenger, ExternalAgents& external) {
  EvalOptions o;
  o.challenger = challenger;
  o.champion = "bot:greedy";
  o.seeds = 3;
  o.master = game::MasterSeed{20261125};
  o.make_agent = [&external](const std::string& name) -> std::unique_ptr<game::Agent> {
    if (name == "passer") return std::make_unique<TsumogiriPasser>();
    if (is_external_name(name)) return external.make(name);
    return make_bot(name);
  };
  return o;
}

// Deadlines a loaded machine cannot miss (a python3 start under a TSan build beside other jobs
// has taken longer than 600 ms): a bot's replies are judged on what they say. The tests about a
// deadline shorten only the one they test, and their bot misses it by far more than any load
// could (fault_bot.py: "hang" sleeps an hour, "silent" never answers).
ExternalOptions quick(bool reuse) {
  ExternalOptions x;
  x.reply_timeout = 60s;
  x.start_timeout = 60s;
  x.log_dir = std::filesystem::temp_directory_path() / "hydra_test_external_logs";
  x.reuse = reuse;
  return x;
}

std::string bot(const std::string& flavour, const std::string& mode) {
  return flavour + ":python3 " HYDRA_FAULT_BOT " " + mode + " {seat}";
}

TEST(ExternalAgent, PlaysExactlyAsTheSameAgentInProcess) {
  ExternalAgents none(quick(true), game::table_rules("tenhou"));
  EvalOptions truth = options("passer", none);
  nlohmann::ordered_json expected = report_json(truth, run_eval(truth));
  expected.erase("challenger");
  for (const std::string flavour : {"mjai", "mjai.app"})
    for (const bool reuse : {true, false}) {
      ExternalAgents external(quick(reuse), game::table_rules("tenhou"));
      const EvalOptions o = options(bot(flavour, "ok"), external);
      for (const int threads : {1, 2}) {
        const oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism, threads);
        nlohmann::ordered_json got = report_json(o, run_eval(o));
        got.erase("challenger");
        EXPECT_EQ(got.dump(), expected.dump()) << flavour << " reuse " << reuse << " threads " << threads;
      }
    }
}

// Every fault is found where the bot commits it. The deadline faults: "hang" answers legally
// until its first own draw after the kyoku's start, then sleeps an hour, under a reply deadline
// of 2 s (its start and earlier replies have the generous one); "silent" never answers, under a
// start deadline of 600 ms. The reason is checked whole and, for "hang", the event it missed is
// its own draw: a slow start or reply on a loaded machine would be reported elsewhere and fail.
TEST(ExternalAgent, EveryFaultVoidsItsGamesAndTheRunFinishes) {
  const std::vector<std::pair<std::string, std::string>> modes = {
      {"crash", "the process exited with status 3"},
      {"hang", "no reply within 2000 ms"},
      {"illegal", "illegal reply: not one of the legal actions"},
      {"garbage", "malformed reply"},
      {"bytes", "malformed reply"},  // not UTF-8: the report quotes it escaped
      {"none", "\"none\" where the seat must act"},
      {"silent", "no reply within 600 ms"},
  };
  for (const std::string flavour : {"mjai", "mjai.app"})
    for (const auto& [mode, reason] : modes) {
      ExternalOptions x = quick(true);
      if (mode == "hang") x.reply_timeout = 2s;
      if (mode == "silent") x.start_timeout = 600ms;
      ExternalAgents external(x, game::table_rules("tenhou"));
      EvalOptions o = options(bot(flavour, mode), external);
      o.seeds = mode == "hang" ? 1 : 2;  // each hang game waits out its deadline
      const std::size_t games = 4 * o.seeds;
      const EvalResult r = run_eval(o);
      EXPECT_TRUE(r.seeds.empty()) << flavour << " " << mode;
      EXPECT_EQ(r.seeds_voided, o.seeds);
      ASSERT_EQ(r.voided.size(), games) << flavour << " " << mode;
      for (const VoidedGame& v : r.voided) {
        EXPECT_EQ(v.fault.seat, v.challenger_seat);
        EXPECT_EQ(v.fault.agent, o.challenger);
        EXPECT_NE(v.fault.reason.find(reason), std::string::npos) << flavour << " " << mode << ": " << v.fault.reason;
        if (mode == "hang") {
          const std::string own_draw = "{\"type\":\"tsumo\",\"actor\":" + std::to_string(v.challenger_seat);
          EXPECT_NE(v.fault.event.find(own_draw), std::string::npos) << flavour << ": " << v.fault.event;
          EXPECT_EQ(v.fault.event.find("start_kyoku"), std::string::npos) << flavour << ": " << v.fault.event;
        }
      }
      (void)report_json(o, r).dump();  // every quoted byte is valid UTF-8 (dump throws otherwise)
      const std::string table = report_table(o, r);
      EXPECT_NE(table.find("void games: " + std::to_string(games) + " (agent faults)"), std::string::npos) << table;
    }
}

}  // namespace
}  // namespace hydra::selfplay
