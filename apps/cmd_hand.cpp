// hydra hand: evaluate one hand (shanten, waits, ukeire; for a win: yaku, han, fu, points and
// payments), or check published case files in batch (--check-majiang / --check-shanten /
// --check-riichienv: prints "checked N, agree M", lists the first disagreements, exit 0 only when
// every case agrees).

#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "flag_checks.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/text.hpp"
#include "hydra/common/error.hpp"
#include "hydra/game/hand_query.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/score_check.hpp"
#include "hydra/common/index.hpp"

namespace hydra::apps {
namespace {

using namespace hydra::game;
using Json = nlohmann::ordered_json;

struct HandOpts {
  HandQuery q;
  std::string rules = "tenhou";
  bool json = false;
  std::string check_majiang, check_shanten, check_riichienv, batch;
  int max_listed = 10;
};

void print_text(const Json& j) {
  std::cout << "hand      " << j["hand"].get<std::string>() << "\n";
  const Json& s = j["shanten"];
  auto opt = [](const Json& v) { return v.is_null() ? std::string("-") : std::to_string(v.get<int>()); };
  std::cout << "shanten   " << s["best"].get<int>() << " (normal " << s["normal"].get<int>() << ", chiitoitsu "
            << opt(s["chiitoitsu"]) << ", kokushi " << opt(s["kokushi"]) << ")\n";
  auto tiles = [](const Json& a) {
    std::string out;
    for (const auto& t : a) {
      if (!out.empty()) out += ' ';
      out += t.get<std::string>();
    }
    return out.empty() ? std::string("none") : out;
  };
  if (j.contains("waits")) {
    std::cout << "waits     " << tiles(j["waits"]) << "\n";
    std::cout << "ukeire    " << j["ukeire"]["count"].get<int>() << " tiles: " << tiles(j["ukeire"]["tiles"]) << "\n";
  }
  if (j.contains("best_discards")) {
    if (s["best"].get<int>() == -1 && !j.contains("win")) std::cout << "complete  (--win TILE scores it)\n";
    for (const auto& d : j["best_discards"])
      std::cout << "discard   " << d["discard"].get<std::string>() << " -> shanten " << d["shanten"].get<int>() << ", ukeire "
                << d["count"].get<int>() << " (" << tiles(d["ukeire"]) << ")\n";
  }
  if (!j.contains("win")) return;
  const Json& w = j["win"];
  std::cout << "win       " << j["win_tile"].get<std::string>() << (j["tsumo"].get<bool>() ? " tsumo" : " ron") << "\n";
  if (w["status"] != "win") {
    std::cout << "result    " << (w["status"] == "no_yaku" ? "no yaku: not a win" : "not a complete hand") << "\n";
    return;
  }
  for (const auto& y : w["yaku"]) {
    if (y.contains("yakuman")) std::cout << "yaku      " << y["name"].get<std::string>() << " (yakuman x" << y["yakuman"].get<int>() << ")\n";
    else std::cout << "yaku      " << y["name"].get<std::string>() << " " << y["han"].get<int>() << " han\n";
  }
  if (w["yakuman"].get<int>() > 0) std::cout << "total     yakuman x" << w["yakuman"].get<int>();
  else std::cout << "total     " << w["han"].get<int>() << " han " << w["fu"].get<int>() << " fu";
  const std::string limit = w["limit"].get<std::string>();
  if (!limit.empty() && limit != "yakuman") std::cout << " (" << limit << ")";
  std::cout << ": " << w["points"].get<int>() << " points\n";
  const Json& p = w["payments"];
  if (p.contains("ron")) std::cout << "payment   ron " << p["ron"].get<int>() << "\n";
  else if (p["dealer"].get<int>() == 0) std::cout << "payment   tsumo " << p["non_dealer"].get<int>() << " all\n";
  else std::cout << "payment   tsumo " << p["non_dealer"].get<int>() << "/" << p["dealer"].get<int>() << "\n";
  std::cout << "deltas    E " << w["deltas"][0] << ", S " << w["deltas"][1] << ", W " << w["deltas"][2] << ", N "
            << w["deltas"][3] << " (with honba and riichi sticks)\n";
}

void run_batch(const std::string& file, const TableRules& rules);

// A folder opens as a stream that reads nothing; refuse it before that passes for an empty file.
void require_file(const std::string& file, const char* flag) {
  std::error_code ec;
  if (file != "-" && std::filesystem::is_directory(file, ec))
    throw Error(std::string(flag) + ": '" + file + "' is a directory, not a file");
}

void run_hand(const HandOpts& o) {
  const TableRules& rules = table_rules(o.rules);
  const int batch = !o.check_majiang.empty() + !o.check_shanten.empty() + !o.check_riichienv.empty();
  if (batch > 0) {
    if (batch > 1 || !o.q.hand.empty()) throw Error("hand: give one --check-* file and no hand");
    require_file(o.check_majiang, "--check-majiang");
    require_file(o.check_shanten, "--check-shanten");
    require_file(o.check_riichienv, "--check-riichienv");
    CheckReport rep;
    if (!o.check_majiang.empty()) rep = check_majiang(o.check_majiang, rules.scoring, o.max_listed);
    if (!o.check_shanten.empty()) rep = check_shanten(o.check_shanten, o.max_listed);
    if (!o.check_riichienv.empty()) rep = check_riichienv(o.check_riichienv, rules.scoring, o.max_listed);
    // A check that checked nothing proves nothing: an empty or wrong file must not pass.
    if (rep.checked == 0) throw Error("'" + rep.file + "' holds no cases to check");
    if (o.json) {
      std::cout << json::dump(Json{{"file", rep.file}, {"rules", rules.name}, {"checked", rep.checked}, {"agree", rep.agree},
                                   {"disagreements", rep.disagreements}}, 2)
                << "\n";
    } else {
      for (const auto& d : rep.disagreements) std::cout << "disagree: " << d << "\n";
      std::cout << rep.file << ": " << rep.summary();
      if (o.check_shanten.empty()) std::cout << " (rules " << rules.name << ")";
      std::cout << "\n";
    }
    if (!rep.all_agree()) throw CLI::RuntimeError(1);
    return;
  }
  if (!o.batch.empty()) {
    if (!o.q.hand.empty()) throw Error("hand: give --batch FILE or a hand, not both");
    require_file(o.batch, "--batch");
    run_batch(o.batch, rules);
    return;
  }
  if (o.q.hand.empty()) throw Error("hand: give a hand (e.g. hydra hand 123m456p789s1122z --win 2z) or a --check-* file");
  const Json out = evaluate_hand(o.q, rules);
  if (o.json) std::cout << json::dump(out, 2) << "\n";
  else print_text(out);
}

// The same hand evaluation for one JSON object per line (keys named like the flags, without
// dashes: "hand", "melds" (array), "win", "tsumo", "from", "round", "seat", "riichi", ...);
// writes one compact JSON result per line, or {"line": N, "error": "..."} for a bad line.
void run_batch(const std::string& file, const TableRules& rules) {
  std::ifstream file_in;
  if (file != "-") {
    file_in.open(file);
    if (!file_in) throw Error("cannot open batch file '" + file + "'");
  }
  std::istream& in = file == "-" ? std::cin : file_in;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::cout << hand_batch_line(line, number, rules) << "\n";
  }
  if (in.bad()) throw Error("cannot read batch file '" + file + "'");
}

}  // namespace

void register_hand(CLI::App& app) {
  auto* cmd = app.add_subcommand("hand", "Evaluate a hand: shanten, waits, ukeire; for a win yaku, han, fu, points and payments");
  auto o = std::make_shared<HandOpts>();
  cmd->add_option("hand", o->q.hand, "closed tiles in compact notation, e.g. 123m406p789s1122z (0 = red five, z: 1-7 = E S W N P F C)");
  cmd->add_option("--meld", o->q.melds,
                  "a declared meld (repeatable), the called tile marked by the seat it came from (- kamicha, = toimen, "
                  "+ shimocha): chi m3-45, pon z111=, daiminkan s5555+, kakan m555=5, ankan p4444");
  cmd->add_option("--win", o->q.win, "the winning tile (5mr, E, 0m, 1z); added to a 13-tile hand, or one of a 14-tile hand");
  cmd->add_flag("--tsumo", o->q.tsumo, "self-drawn win (default: ron)");
  cmd->add_option("--from", o->q.from, "on a ron, who dealt in: kamicha, toimen or shimocha")->capture_default_str();
  cmd->add_option("--round", o->q.round, "round wind: E, S, W or N")->capture_default_str();
  cmd->add_option("--seat", o->q.seat, "seat wind: E (dealer), S, W or N")->capture_default_str();
  cmd->add_flag("--riichi", o->q.riichi, "riichi declared");
  cmd->add_flag("--double-riichi", o->q.double_riichi, "double riichi declared");
  cmd->add_flag("--ippatsu", o->q.ippatsu, "won within the ippatsu window");
  cmd->add_flag("--haitei", o->q.haitei, "tsumo on the last wall tile");
  cmd->add_flag("--houtei", o->q.houtei, "ron on the last discard");
  cmd->add_flag("--rinshan", o->q.rinshan, "tsumo on a kan replacement tile");
  cmd->add_flag("--chankan", o->q.chankan, "ron on a kakan tile");
  cmd->add_flag("--tenhou", o->q.tenhou, "dealer's win on the first draw");
  cmd->add_flag("--chiihou", o->q.chiihou, "non-dealer's win on the first uninterrupted draw");
  cmd->add_option("--dora", o->q.dora, "dora INDICATORS in compact notation, e.g. 1m4z");
  cmd->add_option("--ura", o->q.ura, "ura dora indicators (count with riichi only)");
  cmd->add_option("--honba", o->q.honba, "honba sticks")->check(integer_in(0, 100));
  cmd->add_option("--sticks", o->q.sticks, "riichi sticks on the table")->check(integer_in(0, 100));
  cmd->add_option("--rules", o->rules, kRulesHelp)->capture_default_str();
  cmd->add_flag("--json", o->json, "machine-readable output");
  cmd->add_option("--check-majiang", o->check_majiang, "check kobalab majiang-core cases (JSON array)");
  cmd->add_option("--check-shanten", o->check_shanten, "check ara_p shanten cases (14 tiles + 3 shanten per line)");
  cmd->add_option("--check-riichienv", o->check_riichienv, "check RiichiEnv agari or negative cases");
  cmd->add_option("--batch", o->batch,
                  "evaluate one JSON object per line (keys like the flags: hand, melds, win, tsumo, seat, ...; - = stdin), "
                  "one JSON result per line");
  cmd->add_option("--max-listed", o->max_listed, "disagreements listed in check modes")->check(integer_in(0, 1000000))->capture_default_str();
  cmd->callback([o] { run_hand(*o); });
}

}  // namespace hydra::apps
