// hydra replay --check FILES_OR_DIRS... [--rules NAME] [--json]
// Replays each game through the engine and checks every event, payment and score
// (hydra/data/replay.hpp). One line per file and a summary; exit 0 when no file failed
// (files under rules Hydra does not play are skipped with the reason and do not fail the run).

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "hydra/common/error.hpp"
#include "hydra/data/convert.hpp"
#include "hydra/data/replay.hpp"
#include "hydra/game/table_rules.hpp"

namespace hydra::apps {
namespace {

struct ReplayOptions {
  std::vector<std::filesystem::path> inputs;
  bool check = false;
  bool json = false;
  std::string rules = "tenhou";
};

void run_replay(const ReplayOptions& o) {
  if (!o.check) throw Error("replay: nothing to do (use --check)");
  const game::TableRules& rules = game::table_rules(o.rules);
  const auto files = data::collect_log_files(o.inputs);
  if (files.empty()) throw Error("replay: no log files found in the inputs");
  int counts[4] = {0, 0, 0, 0};
  long events = 0, kyoku = 0, decisions = 0, horas = 0, ryukyokus = 0;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& f : files) {
    const data::ReplayReport r = data::check_file(f, rules);
    ++counts[static_cast<int>(r.status)];
    events += r.events;
    kyoku += r.kyoku;
    decisions += r.decisions;
    horas += r.horas;
    ryukyokus += r.ryukyokus;
    if (o.json) {
      list.push_back({{"file", r.file}, {"status", data::to_string(r.status)}, {"message", r.message},
                      {"events", r.events}, {"kyoku", r.kyoku}, {"decisions", r.decisions}, {"horas", r.horas},
                      {"ryukyokus", r.ryukyokus}});
      continue;
    }
    std::cout << data::to_string(r.status) << "  " << r.file;
    if (r.status == data::ReplayStatus::pass)
      std::cout << "  (" << r.kyoku << " kyoku, " << r.decisions << " decisions, " << r.horas << " hora, "
                << r.ryukyokus << " ryukyoku)" << (r.message.empty() ? "" : "  " + r.message);
    else
      std::cout << "  " << r.message;
    std::cout << "\n";
  }
  const int pass = counts[static_cast<int>(data::ReplayStatus::pass)];
  const int fail = counts[static_cast<int>(data::ReplayStatus::fail)];
  const int skipped = counts[static_cast<int>(data::ReplayStatus::skipped)];
  const int errors = counts[static_cast<int>(data::ReplayStatus::error)];
  if (o.json) {
    nlohmann::ordered_json j;
    j["rules"] = rules.name;
    j["files"] = list;
    j["summary"] = {{"files", files.size()}, {"pass", pass}, {"fail", fail}, {"skipped", skipped}, {"error", errors},
                    {"events", events}, {"kyoku", kyoku}, {"decisions", decisions}, {"horas", horas},
                    {"ryukyokus", ryukyokus}};
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << "replay --check (" << rules.name << "): " << files.size() << " files: " << pass << " pass, " << fail
              << " fail, " << skipped << " skipped, " << errors << " error; " << kyoku << " kyoku, " << decisions
              << " decisions, " << horas << " hora, " << ryukyokus << " ryukyoku checked\n";
  }
  if (fail + errors > 0)
    throw Error("replay --check: " + std::to_string(fail + errors) + " of " + std::to_string(files.size()) + " files did not pass");
}

}  // namespace

void register_replay(CLI::App& app) {
  auto opts = std::make_shared<ReplayOptions>();
  CLI::App* cmd = app.add_subcommand("replay", "replay game logs through the engine and check every event and score");
  cmd->add_option("inputs", opts->inputs, "log files or folders (searched recursively)")->required();
  cmd->add_flag("--check", opts->check, "check legality, yaku, han, fu, payments and scores against the log");
  cmd->add_option("--rules", opts->rules, "table rules preset")->capture_default_str();
  cmd->add_flag("--json", opts->json, "one JSON report instead of text lines");
  cmd->callback([opts] { run_replay(*opts); });
}

}  // namespace hydra::apps
