// hydra replay [--check] [--verify-encoder] FILES_OR_DIRS... [--rules auto|NAME] [--json]
// --check replays each game through the engine and checks every event, payment and score
// (hydra/data/replay.hpp), each under its own rules (--rules auto, the default: a Tenhou log's
// lobby type and date pick them, hydra/data/log_rules.hpp; `tenhou` for other logs) or all under
// the rules named, and where a log records its walls (a Tenhou mjlog's SHUFFLE seed) every dealt
// hand, draw and indicator against them. --verify-encoder checks the encoder at every decision
// point of every seat: incremental == full encoding, and encoding permuted events == permuting the
// encoding for all 6 suit permutations (hydra/encoder/verify.hpp). One line per file (with the
// rules it was checked under) and a summary with the number of files per rules; exit 0 when no
// file failed (files under rules Hydra does not play are skipped with the reason).

#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "flag_checks.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/text.hpp"
#include "hydra/common/error.hpp"
#include "hydra/data/convert.hpp"
#include "hydra/data/log_rules.hpp"
#include "hydra/data/replay.hpp"
#include "hydra/game/rules.hpp"

namespace hydra::apps {
namespace {

struct ReplayOptions {
  std::vector<std::filesystem::path> inputs;
  bool check = false;
  bool verify_encoder = false;
  bool json = false;
  std::string rules = "auto";
};

void run_replay(const ReplayOptions& o) {
  if (!o.check && !o.verify_encoder) throw Error("replay: nothing to do (use --check and/or --verify-encoder)");
  const data::RulesChoice rules = data::RulesChoice::parse(o.rules);
  const auto files = data::collect_log_files(o.inputs);
  if (files.empty()) throw Error("replay: no log files found in the inputs");
  int counts[4] = {0, 0, 0, 0};
  long events = 0, kyoku = 0, decisions = 0, horas = 0, ryukyokus = 0;
  long wall_games = 0, wall_kyoku = 0, wall_draws = 0, wall_rinshan = 0, wall_indicators = 0;
  std::map<std::string, int> per_rules;  // files by the rules they were checked under
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& f : files) {
    data::ReplayReport r = o.check ? data::check_file(f, rules) : data::verify_encoder_file(f, rules);
    if (o.check && o.verify_encoder && r.status == data::ReplayStatus::pass) {
      data::ReplayReport v = data::verify_encoder_file(f, rules);
      if (v.status != data::ReplayStatus::pass) r.status = v.status;
      r.message += (r.message.empty() ? "" : "; ") + v.message;
    }
    ++counts[static_cast<int>(r.status)];
    if (!r.rules.empty()) ++per_rules[r.rules];
    events += r.events;
    kyoku += r.kyoku;
    decisions += r.decisions;
    horas += r.horas;
    ryukyokus += r.ryukyokus;
    wall_games += r.wall_kyoku > 0;
    wall_kyoku += r.wall_kyoku;
    wall_draws += r.wall_draws;
    wall_rinshan += r.wall_rinshan;
    wall_indicators += r.wall_indicators;
    if (o.json) {
      list.push_back({{"file", r.file}, {"status", data::to_string(r.status)}, {"rules", r.rules}, {"message", r.message},
                      {"events", r.events}, {"kyoku", r.kyoku}, {"decisions", r.decisions}, {"horas", r.horas},
                      {"ryukyokus", r.ryukyokus}, {"wall_kyoku", r.wall_kyoku}, {"wall_draws", r.wall_draws},
                      {"wall_rinshan", r.wall_rinshan}, {"wall_indicators", r.wall_indicators}});
      continue;
    }
    std::cout << data::to_string(r.status) << "  " << text::to_utf8(r.file) << (r.rules.empty() ? "" : "  [" + r.rules + "]");
    if (r.status == data::ReplayStatus::pass && o.check)
      std::cout << "  (" << r.kyoku << " kyoku, " << r.decisions << " decisions, " << r.horas << " hora, "
                << r.ryukyokus << " ryukyoku" << (r.wall_kyoku > 0 ? ", wall checked" : "") << ")"
                << (r.message.empty() ? "" : "  " + r.message);
    else
      std::cout << "  " << text::to_utf8(r.message);
    std::cout << "\n";
  }
  const int pass = counts[static_cast<int>(data::ReplayStatus::pass)];
  const int fail = counts[static_cast<int>(data::ReplayStatus::fail)];
  const int skipped = counts[static_cast<int>(data::ReplayStatus::skipped)];
  const int errors = counts[static_cast<int>(data::ReplayStatus::error)];
  std::string per_rules_text;
  nlohmann::ordered_json per_rules_json = nlohmann::ordered_json::object();
  for (const auto& [name, n] : per_rules) {
    per_rules_text += (per_rules_text.empty() ? "" : ", ") + name + " " + std::to_string(n);
    per_rules_json[name] = n;
  }
  if (o.json) {
    nlohmann::ordered_json j;
    j["rules"] = rules.describe();
    j["files"] = list;
    j["summary"] = {{"files", files.size()}, {"pass", pass}, {"fail", fail}, {"skipped", skipped}, {"error", errors},
                    {"events", events}, {"kyoku", kyoku}, {"decisions", decisions}, {"horas", horas},
                    {"ryukyokus", ryukyokus}, {"files_per_rules", per_rules_json}, {"wall_games", wall_games},
                    {"wall_kyoku", wall_kyoku}, {"wall_draws", wall_draws}, {"wall_rinshan", wall_rinshan},
                    {"wall_indicators", wall_indicators}};
    std::cout << json::dump(j, 2) << "\n";
  } else {
    std::cout << "replay" << (o.check ? " --check" : "") << (o.verify_encoder ? " --verify-encoder" : "") << " ("
              << rules.describe() << "): " << files.size() << " files: " << pass << " pass, " << fail
              << " fail, " << skipped << " skipped, " << errors << " error; " << kyoku << " kyoku, " << decisions
              << " decisions, " << horas << " hora, " << ryukyokus << " ryukyoku checked; files per rules: "
              << (per_rules_text.empty() ? "none" : per_rules_text);
    if (o.check)
      std::cout << "; walls rebuilt from seeds: " << wall_games << " games, " << wall_kyoku << " kyoku, " << wall_draws
                << " live draws, " << wall_rinshan << " rinshan draws, " << wall_indicators << " indicators checked";
    std::cout << "\n";
  }
  if (fail + errors > 0)
    throw Error("replay: " + std::to_string(fail + errors) + " of " + std::to_string(files.size()) + " files did not pass");
}

}  // namespace

void register_replay(CLI::App& app) {
  auto opts = std::make_shared<ReplayOptions>();
  CLI::App* cmd = app.add_subcommand("replay", "replay game logs through the engine and check every event and score");
  cmd->add_option("inputs", opts->inputs, "log files or folders (searched recursively)")->required();
  cmd->add_flag("--check", opts->check,
                "check legality, yaku, han, fu, payments and scores against the log, and the wall where the log's seed gives it");
  cmd->add_option("--rules", opts->rules,
                  std::string("auto (each Tenhou log under the rules of its lobby and date, other logs under tenhou), "
                              "or the rules for every log: ") +
                      kRulesHelp)
      ->capture_default_str();
  cmd->add_flag("--verify-encoder", opts->verify_encoder,
                "check incremental == full encoding and suit-permutation equivariance at every decision point");
  cmd->add_flag("--json", opts->json, "one JSON report instead of text lines");
  cmd->callback([opts] { run_replay(*opts); });
}

}  // namespace hydra::apps
