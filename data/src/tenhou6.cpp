// tenhou.net/6 JSON -> mjai events. A file is one object {"name", "rule", "log": [kyoku...]} or
// JSON lines with one such object per kyoku. A kyoku is
//   [[round, honba, sticks], scores, dora markers, ura markers,
//    hand0, takes0, discards0, ..., hand3, takes3, discards3, [result, deltas, [who, from, pao,
//    points, yaku...], ...]]
// and tenhou6_replay.cpp turns the per-player lists back into one event order.

#include <optional>

#include <nlohmann/json.hpp>

#include "hydra/common/json.hpp"
#include "hydra/common/text.hpp"
#include "hydra/data/tenhou.hpp"
#include "hydra/data/text_file.hpp"
#include "tenhou6_kyoku.hpp"

namespace hydra::data {
namespace {

using nlohmann::json;
using tenhou6::Item;
using tenhou6::Kyoku;

constexpr std::size_t kMaxTurns = 100;

std::vector<json> parse_objects(std::string_view text, const std::string& name) {
  std::vector<json> objects;
  auto broken = [&](int line, const hydra::json::ParseError& e) {
    return Error(name + ":" + std::to_string(line) + ": broken JSON: column " + std::to_string(e.column()) + ": " +
                 e.reason());
  };
  std::optional<hydra::json::ParseError> whole;
  try {
    objects.push_back(hydra::json::parse(text));
    return objects;
  } catch (const hydra::json::ParseError& e) {
    // Not one document: the JSON-lines form, one kyoku per line.
    whole = e;
  }
  std::size_t begin = 0;
  int line = 0;
  bool first = true;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view l = text.substr(begin, end - begin);
    ++line;
    begin = end + 1;
    if (l.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    try {
      objects.push_back(hydra::json::parse(l));
    } catch (const hydra::json::ParseError& e) {
      // A first line that is no document either: the file is one broken document, and the
      // whole-file error says where.
      if (first) throw broken(whole->line(), *whole);
      throw broken(line, e);
    }
    first = false;
  }
  if (objects.empty()) throw Error(name + ": empty file");
  return objects;
}

// Rules from `rule` ({"disp": "鳳南喰赤", "aka": 1} or "aka51".."aka53") and the player count.
void check_rules(const json& obj, const std::string& name) {
  auto reject = [&](const std::string& why) { throw UnsupportedRule(name + ": unsupported rule: " + why); };
  const json rule = obj.value("rule", json::object());
  const std::string disp = rule.contains("disp") && rule["disp"].is_string() ? rule["disp"].get<std::string>() : "";
  if (disp.find("三") != std::string::npos) reject("3-player (sanma), rule '" + text::excerpt(disp) + "'");
  int red = -1;  // unknown: assume Tenhou's usual three red fives
  if (rule.contains("aka") && rule["aka"].is_number()) red = rule["aka"].get<double>() != 0 ? 3 : 0;
  for (const char* key : {"aka51", "aka52", "aka53"})
    if (rule.contains(key) && rule[key].is_number()) red = std::max(red, 0) + (rule[key].get<double>() != 0 ? 1 : 0);
  if (red == 0) reject("no red fives (aka nashi), rule '" + text::excerpt(disp) + "'");
  // Tenhou's lobby names ("般南喰赤") say 喰 when open tanyao is allowed.
  const bool tenhou_disp = disp.find("南") != std::string::npos || disp.find("東") != std::string::npos;
  if (tenhou_disp && disp.find("喰") == std::string::npos) reject("no open tanyao (kuitan nashi), rule '" + text::excerpt(disp) + "'");
  if (obj.contains("name") && obj["name"].is_array() && obj["name"].size() != game::kNumSeats)
    reject("3-player (" + std::to_string(obj["name"].size()) + " names)");
}

// An integer of at most 9 digits either way: every tenhou.net/6 number (tile codes, scores,
// seats) is far inside that, and get<int> would wrap a larger one.
int as_int(const json& v, const std::string& where) {
  constexpr std::int64_t kMax = 999'999'999;
  if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<std::uint64_t>() > kMax) ||
      v.get<std::int64_t>() < -kMax || v.get<std::int64_t>() > kMax)
    throw Error(where + ": expected an integer of at most 9 digits, got " + hydra::json::excerpt(v));
  return v.get<int>();
}

std::vector<game::Pai> tiles(const json& v, const std::string& where) {
  if (!v.is_array()) throw Error(where + ": expected a list of tiles");
  std::vector<game::Pai> out;
  for (const json& t : v) out.push_back(tenhou6::tile_from_code(as_int(t, where)));
  return out;
}

std::vector<Item> items(const json& v, const std::string& where) {
  if (!v.is_array()) throw Error(where + ": expected a list");
  std::vector<Item> out;
  for (const json& x : v) {
    Item it;
    if (x.is_string()) it.call = x.get<std::string>();
    else it.code = as_int(x, where);
    out.push_back(std::move(it));
  }
  return out;
}

game::Scores scores(const json& v, const std::string& where) {
  if (!v.is_array() || v.size() != game::kNumSeats) throw Error(where + ": expected 4 numbers");
  game::Scores s{};
  for (std::size_t p = 0; p < s.size(); ++p) s[p] = as_int(v[p], where);
  return s;
}

Kyoku parse_kyoku(const json& k, const std::string& where) {
  if (!k.is_array() || k.size() != 17) {
    if (k.is_array() && k.size() == 14) throw UnsupportedRule(where + ": unsupported rule: 3-player (sanma) kyoku");
    throw Error(where + ": a kyoku must be a list of 17 entries");
  }
  Kyoku out;
  const json& head = k[0];
  if (!head.is_array() || head.size() < 3) throw Error(where + ": entry 0 must be [round, honba, sticks]");
  out.round = as_int(head[0], where + " round");
  out.honba = as_int(head[1], where + " honba");
  out.kyotaku = as_int(head[2], where + " sticks");
  if (out.round < 0 || out.round >= 16 || out.honba < 0 || out.honba > 255 || out.kyotaku < 0 || out.kyotaku > 255)
    throw Error(where + ": round, honba or sticks out of range");
  out.scores = scores(k[1], where + " scores");
  out.dora = tiles(k[2], where + " dora");
  out.ura = tiles(k[3], where + " ura");
  if (out.dora.empty() || out.dora.size() > 5 || out.ura.size() > 5) throw Error(where + ": 1-5 dora and 0-5 ura markers expected");
  for (std::size_t p = 0; p < game::kNumSeats; ++p) {
    const std::string seat = where + " seat " + std::to_string(p);
    out.haipai[p] = tiles(k[4 + 3 * p], seat + " hand");
    if (out.haipai[p].empty()) throw UnsupportedRule(where + ": unsupported rule: 3-player (seat " + std::to_string(p) + " has no hand)");
    if (out.haipai[p].size() != 13) throw Error(seat + " hand: " + std::to_string(out.haipai[p].size()) + " tiles, not 13");
    out.takes[p] = items(k[5 + 3 * p], seat + " takes");
    out.discards[p] = items(k[6 + 3 * p], seat + " discards");
    // A kyoku has at most ~30 turns per player; the bound also bounds the replay's recursion.
    if (out.takes[p].size() > kMaxTurns || out.discards[p].size() > kMaxTurns)
      throw Error(seat + ": more than " + std::to_string(kMaxTurns) + " takes or discards");
  }
  const json& r = k[16];
  if (!r.is_array() || r.empty() || !r[0].is_string()) throw Error(where + ": the result must start with its name");
  out.result = r[0].get<std::string>();
  if (out.result == "和了") {
    for (std::size_t i = 1; i + 1 < r.size(); i += 2) {
      tenhou6::Win w;
      w.deltas = scores(r[i], where + " win deltas");
      const json& info = r[i + 1];
      if (!info.is_array()) throw Error(where + ": win details must be a list");
      for (const json& x : info) {
        if (x.is_number_integer()) w.who_from_pao.push_back(as_int(x, where + " win details"));
        else if (x.is_string() && w.points.empty()) w.points = x.get<std::string>();
        else if (x.is_string()) w.yakus.push_back(x.get<std::string>());
      }
      out.wins.push_back(std::move(w));
    }
    if (out.wins.empty()) throw Error(where + ": a win without deltas");
  } else if (r.size() >= 2) {
    out.draw_deltas = scores(r[1], where + " draw deltas");
  }
  return out;
}

}  // namespace

GameLog parse_tenhou6(std::string_view json_text, const std::string& name) {
  const std::vector<json> objects = parse_objects(json_text, name);
  GameLog log;
  std::vector<std::uint8_t> given;
  game::Event start;
  start.type = game::EventType::start_game;
  log.events.push_back(start);
  given.push_back(kGivenAll);
  int kyoku_no = 0;
  const json* result = nullptr;  // "sc": final scores and points, when the file has the game's end
  for (const json& obj : objects) {
    if (!obj.is_object() || !obj.contains("log") || !obj["log"].is_array())
      throw Error(name + ": not a tenhou.net/6 log (no \"log\" list)");
    check_rules(obj, name);
    if (kyoku_no == 0 && obj.contains("name") && obj["name"].is_array())
      for (std::size_t p = 0; p < log.names.size() && p < obj["name"].size(); ++p)
        if (obj["name"][p].is_string()) log.names[p] = obj["name"][p].get<std::string>();
    if (kyoku_no == 0 && obj.contains("ref") && obj["ref"].is_string())
      log.uri = "http://tenhou.net/0/?log=" + obj["ref"].get<std::string>() + "&tw=0";
    if (obj.contains("sc")) result = &obj["sc"];
    for (const json& k : obj["log"]) {
      const std::string where = name + ": kyoku " + std::to_string(++kyoku_no);
      const Kyoku kyoku = parse_kyoku(k, where);
      if (kyoku_no == 1 && kyoku.round == 0 && kyoku.honba == 0 && kyoku.kyotaku == 0)
        for (std::int32_t s : kyoku.scores)
          if (s != 25000) throw UnsupportedRule(name + ": unsupported rule: start scores of " + std::to_string(s) + " (Hydra plays 25,000 starts)");
      try {
        tenhou6::replay_kyoku(kyoku, log.events, given);
      } catch (const UnsupportedRule&) {
        throw;
      } catch (const Error& e) {
        throw Error(where + ": " + e.what());
      }
    }
  }
  if (log.uri.empty() && name.find("gm-") != std::string::npos) {
    std::string id = name.substr(name.find_last_of('/') == std::string::npos ? 0 : name.find_last_of('/') + 1);
    if (const auto dot = id.find('.'); dot != std::string::npos) id.resize(dot);
    log.uri = "http://tenhou.net/0/?log=" + id + "&tw=0";
  }
  game::Event end;
  end.type = game::EventType::end_game;
  // Without "sc" the file does not say where the game ended (single kyoku, editor fixtures).
  log.end_recorded = result != nullptr;
  if (result) {
    if (!result->is_array() || result->size() != 2 * game::kNumSeats)
      throw Error(name + ": field 'sc' must hold 4 scores and 4 final points");
    for (std::size_t p = 0; p < game::kNumSeats; ++p) {
      const json& x = (*result)[2 * p];
      if (!x.is_number_integer() || x.get<std::int64_t>() < -10'000'000 || x.get<std::int64_t>() > 10'000'000)
        throw Error(name + ": field 'sc': score " + std::to_string(p) + " is not an integer in -10000000..10000000");
      end.scores[p] = x.get<std::int32_t>();
    }
  }
  log.events.push_back(end);
  given.push_back(result ? kGivenScores : 0);
  normalize(log, given, [&](std::size_t i) { return name + ": event " + std::to_string(i); });
  return log;
}

GameLog read_tenhou6(const std::filesystem::path& path) {
  return parse_tenhou6(read_text_file(path), path.string());
}

}  // namespace hydra::data
