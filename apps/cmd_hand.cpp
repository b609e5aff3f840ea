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
#include "hydra/game/agari.hpp"
#include "hydra/game/hand.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/score.hpp"
#include "hydra/game/score_check.hpp"
#include "hydra/game/shanten.hpp"
#include "hydra/common/index.hpp"

namespace hydra::apps {
namespace {

using namespace hydra::game;
using Json = nlohmann::ordered_json;

struct HandOpts {
  std::string hand;
  std::vector<std::string> melds;
  std::string win;
  bool tsumo = false;
  std::string from = "kamicha";
  std::string round = "E", seat = "S";
  bool riichi = false, double_riichi = false, ippatsu = false, haitei = false, houtei = false;
  bool rinshan = false, chankan = false, tenhou = false, chiihou = false;
  std::string dora, ura;
  int honba = 0, sticks = 0;
  std::string rules = "tenhou";
  bool json = false;
  std::string check_majiang, check_shanten, check_riichienv, batch;
  int max_listed = 10;
};

// One tile: an mjai name (5mr, E) or one compact tile (0m, 1z).
Pai parse_tile(const std::string& text, const char* flag) {
  try {
    return parse_mjai(text);
  } catch (const Error&) {
  }
  std::vector<Pai> tiles;
  try {
    tiles = parse_compact(text);
  } catch (const Error&) {
    throw Error(std::string(flag) + ": '" + text::excerpt(text) + "' is not a tile (mjai name like 5mr or E, or compact like 0m or 1z)");
  }
  if (tiles.size() != 1) throw Error(std::string(flag) + ": '" + text::excerpt(text) + "' must be exactly one tile");
  return tiles[0];
}

Wind parse_wind(const std::string& text, const char* flag) {
  static const std::array<std::string, 4> kNames = {"E", "S", "W", "N"};
  for (int w = 0; w < 4; ++w)
    if (text == kNames[ix(w)] || text == std::to_string(w + 1) + "z") return static_cast<Wind>(w);
  throw Error(std::string(flag) + ": '" + text::excerpt(text) + "' is not a wind (E, S, W or N)");
}

From parse_from(const std::string& text) {
  if (text == "kamicha") return From::kamicha;
  if (text == "toimen") return From::toimen;
  if (text == "shimocha") return From::shimocha;
  throw Error(std::string("--from: '") + text::excerpt(text) + "' is not kamicha, toimen or shimocha");
}

Json tile_array(TileMask m) {
  Json a = Json::array();
  for (int t = 0; t < kNumTileTypes; ++t)
    if (m.contains(TileType(t))) a.push_back(std::string(mjai_name(Pai(TileType(t)))));
  return a;
}

Json shanten_json(int s) { return s >= kNoShanten ? Json(nullptr) : Json(s); }

// Shanten, waits and ukeire (13 tiles) or the best discards (14 tiles).
void analyse(const Hand& hand, const TileCounts& visible, Json& out) {
  const Shanten s = shanten_all(hand.closed);
  out["shanten"] = {{"best", s.best()}, {"normal", s.normal}, {"chiitoitsu", shanten_json(s.chiitoi)},
                    {"kokushi", shanten_json(s.kokushi)}};
  if (hand.closed_size() % 3 == 1) {
    out["waits"] = tile_array(winning_tiles(hand.closed));
    const Ukeire u = ukeire(hand.closed, visible);
    out["ukeire"] = {{"tiles", tile_array(u.tiles)}, {"count", u.unseen}};
    return;
  }
  const DiscardShanten d = discard_shanten(hand.closed);
  Json discards = Json::array();
  const TileMask best = d.efficient();
  for (int t = 0; t < kNumTileTypes; ++t) {
    if (!best.contains(TileType(t))) continue;
    TileCounts after = hand.closed;
    --after[ix(t)];
    const Ukeire u = ukeire(after, visible);
    discards.push_back({{"discard", std::string(mjai_name(Pai(TileType(t))))}, {"shanten", d.after[ix(t)]},
                        {"ukeire", tile_array(u.tiles)}, {"count", u.unseen}});
  }
  out["best_discards"] = discards;
}

Json win_json(const WinResult& r, const WinContext& ctx) {
  Json w;
  static constexpr std::array<const char*, 3> kStatus = {"win", "not_complete", "no_yaku"};
  w["status"] = kStatus[ix(r.status)];
  if (!r.is_win()) return w;
  Json yaku = Json::array();
  for (int i = 0; i < r.num_yaku; ++i) {
    const YakuHan& y = r.yaku[ix(i)];
    const YakuInfo& info = yaku_info(y.yaku);
    Json e = {{"name", std::string(info.name)}, {"japanese", std::string(info.japanese)}};
    e[info.yakuman ? "yakuman" : "han"] = y.han;
    yaku.push_back(e);
  }
  w["yaku"] = yaku;
  w["han"] = r.han;
  w["fu"] = r.fu;
  w["yakuman"] = r.yakuman;
  w["limit"] = std::string(limit_name(r.limit));
  w["base"] = r.base;
  w["points"] = r.points;
  if (ctx.tsumo) {
    w["payments"] = {{"dealer", r.tsumo_from_dealer}, {"non_dealer", r.tsumo_from_non_dealer}};
  } else {
    w["payments"] = {{"ron", r.ron_payment}};
  }
  w["deltas"] = r.deltas;  // by seat wind E S W N, with honba and riichi sticks
  return w;
}

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

Json evaluate(const HandOpts& o, const TableRules& rules);
void run_batch(const std::string& file, const TableRules& rules);

HandOpts batch_opts(const std::string& line, int number) {
  const std::string where = "batch line " + std::to_string(number);
  nlohmann::json j;
  try {
    j = json::parse(line);
  } catch (const json::ParseError& e) {
    throw Error(where + ": not JSON: " + e.what());
  }
  if (!j.is_object()) throw Error(where + ": expected a JSON object");
  HandOpts o;
  const std::vector<std::pair<const char*, bool*>> flags = {
      {"tsumo", &o.tsumo},     {"riichi", &o.riichi},   {"double_riichi", &o.double_riichi}, {"ippatsu", &o.ippatsu},
      {"haitei", &o.haitei},   {"houtei", &o.houtei},   {"rinshan", &o.rinshan},             {"chankan", &o.chankan},
      {"tenhou", &o.tenhou},   {"chiihou", &o.chiihou}};
  const std::vector<std::pair<const char*, std::string*>> texts = {
      {"hand", &o.hand}, {"win", &o.win}, {"from", &o.from}, {"round", &o.round},
      {"seat", &o.seat}, {"dora", &o.dora}, {"ura", &o.ura}};
  for (const auto& [key, value] : j.items()) {
    bool known = false;
    for (const auto& [name, field] : flags)
      if (key == name) {
        if (!value.is_boolean()) throw Error(where + ": " + key + ": expected true or false");
        *field = value.get<bool>();
        known = true;
      }
    for (const auto& [name, field] : texts)
      if (key == name) {
        if (!value.is_string()) throw Error(where + ": " + key + ": expected a string");
        *field = value.get<std::string>();
        known = true;
      }
    if (key == "melds") {
      if (!value.is_array()) throw Error(where + ": melds: expected an array of meld strings");
      for (const auto& m : value) {
        if (!m.is_string()) throw Error(where + ": melds: expected meld strings");
        o.melds.push_back(m.get<std::string>());
      }
      known = true;
    }
    if (key == "honba" || key == "sticks") {
      if (!value.is_number_integer() || value.get<std::int64_t>() < 0 || value.get<std::int64_t>() > 1000)
        throw Error(where + ": " + key + ": expected a count 0-1000");
      (key == "honba" ? o.honba : o.sticks) = value.get<int>();
      known = true;
    }
    if (!known) throw Error(where + ": unknown key '" + text::excerpt(key) + "'");
  }
  if (o.hand.empty()) throw Error(where + ": missing \"hand\"");
  return o;
}

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
    if (batch > 1 || !o.hand.empty()) throw Error("hand: give one --check-* file and no hand");
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
    if (!o.hand.empty()) throw Error("hand: give --batch FILE or a hand, not both");
    require_file(o.batch, "--batch");
    run_batch(o.batch, rules);
    return;
  }
  if (o.hand.empty()) throw Error("hand: give a hand (e.g. hydra hand 123m456p789s1122z --win 2z) or a --check-* file");
  const Json out = evaluate(o, rules);
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

Json evaluate(const HandOpts& o, const TableRules& rules) {
  std::vector<Meld> melds;
  for (const auto& m : o.melds) melds.push_back(parse_meld(m));
  std::vector<Pai> closed = parse_compact(o.hand);
  WinContext ctx;
  Pai win;
  const bool has_win = !o.win.empty();
  const int total = static_cast<int>(closed.size() + 3 * melds.size());
  if (has_win) {
    win = parse_tile(o.win, "--win");
    if (total == 13) {
      closed.push_back(win);
    } else if (total == 14) {
      bool held = false;
      for (Pai p : closed) held = held || p == win;
      if (!held) throw Error(std::string("--win ") + text::excerpt(o.win) + " is not in the 14-tile hand '" + text::excerpt(o.hand) + "'");
    }
  }
  const Hand hand = make_hand(closed, melds, o.hand);
  for (Pai p : parse_compact(o.dora)) ctx.add_dora_indicator(p.type());
  for (Pai p : parse_compact(o.ura)) ctx.add_ura_indicator(p.type());
  // Visible to the player: the hand itself and the dora indicators (for unseen-copy counts).
  TileCounts visible = hand.all_tiles();
  for (int i = 0; i < ctx.num_dora_indicators; ++i) {
    auto& v = visible[static_cast<std::size_t>(ctx.dora_indicators[ix(i)].index())];
    if (v == 4) throw Error(std::string("--dora: a fifth copy of ") + std::string(mjai_name(Pai(ctx.dora_indicators[ix(i)]))));
    ++v;
  }

  Json out;
  Hand before = hand;  // the hand waiting for the win
  if (has_win) before.remove(win);
  out["hand"] = to_string(before);
  out["rules"] = rules.name;
  analyse(has_win ? before : hand, visible, out);
  if (has_win) {
    ctx.win_tile = win.type();
    ctx.tsumo = o.tsumo;
    ctx.ron_from = parse_from(o.from);
    ctx.round_wind = parse_wind(o.round, "--round");
    ctx.seat_wind = parse_wind(o.seat, "--seat");
    ctx.riichi = o.riichi;
    ctx.double_riichi = o.double_riichi;
    ctx.ippatsu = o.ippatsu;
    ctx.haitei = o.haitei;
    ctx.houtei = o.houtei;
    ctx.rinshan = o.rinshan;
    ctx.chankan = o.chankan;
    ctx.tenhou = o.tenhou;
    ctx.chiihou = o.chiihou;
    ctx.honba = o.honba;
    ctx.riichi_sticks = o.sticks;
    validate_win(hand, ctx);
    out["win_tile"] = std::string(mjai_name(win));
    out["tsumo"] = o.tsumo;
    out["win"] = win_json(score_win(hand, ctx, rules.scoring), ctx);
  }
  return out;
}

}  // namespace

std::string hand_batch_line(const std::string& line, int number, const game::TableRules& rules) {
  Json out;
  try {
    out = evaluate(batch_opts(line, number), rules);
  } catch (const Error& e) {
    out = Json{{"error", e.what()}};
  }
  out["line"] = number;
  return json::dump(out);
}

void register_hand(CLI::App& app) {
  auto* cmd = app.add_subcommand("hand", "Evaluate a hand: shanten, waits, ukeire; for a win yaku, han, fu, points and payments");
  auto o = std::make_shared<HandOpts>();
  cmd->add_option("hand", o->hand, "closed tiles in compact notation, e.g. 123m406p789s1122z (0 = red five, z: 1-7 = E S W N P F C)");
  cmd->add_option("--meld", o->melds,
                  "a declared meld (repeatable), the called tile marked by the seat it came from (- kamicha, = toimen, "
                  "+ shimocha): chi m3-45, pon z111=, daiminkan s5555+, kakan m555=5, ankan p4444");
  cmd->add_option("--win", o->win, "the winning tile (5mr, E, 0m, 1z); added to a 13-tile hand, or one of a 14-tile hand");
  cmd->add_flag("--tsumo", o->tsumo, "self-drawn win (default: ron)");
  cmd->add_option("--from", o->from, "on a ron, who dealt in: kamicha, toimen or shimocha")->capture_default_str();
  cmd->add_option("--round", o->round, "round wind: E, S, W or N")->capture_default_str();
  cmd->add_option("--seat", o->seat, "seat wind: E (dealer), S, W or N")->capture_default_str();
  cmd->add_flag("--riichi", o->riichi, "riichi declared");
  cmd->add_flag("--double-riichi", o->double_riichi, "double riichi declared");
  cmd->add_flag("--ippatsu", o->ippatsu, "won within the ippatsu window");
  cmd->add_flag("--haitei", o->haitei, "tsumo on the last wall tile");
  cmd->add_flag("--houtei", o->houtei, "ron on the last discard");
  cmd->add_flag("--rinshan", o->rinshan, "tsumo on a kan replacement tile");
  cmd->add_flag("--chankan", o->chankan, "ron on a kakan tile");
  cmd->add_flag("--tenhou", o->tenhou, "dealer's win on the first draw");
  cmd->add_flag("--chiihou", o->chiihou, "non-dealer's win on the first uninterrupted draw");
  cmd->add_option("--dora", o->dora, "dora INDICATORS in compact notation, e.g. 1m4z");
  cmd->add_option("--ura", o->ura, "ura dora indicators (count with riichi only)");
  cmd->add_option("--honba", o->honba, "honba sticks")->check(integer_in(0, 100));
  cmd->add_option("--sticks", o->sticks, "riichi sticks on the table")->check(integer_in(0, 100));
  cmd->add_option("--rules", o->rules, "rules preset (tenhou, tenhou-tonpuusen, tenhou-2009, tenhou-2009-tonpuusen, tenhou-kyoku, mahjongsoul; +no-red, +no-kuitan) or a rules JSON file")->capture_default_str();
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
