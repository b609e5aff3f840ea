#include "hydra/data/mjai.hpp"

#include <nlohmann/json.hpp>

#include "hydra/data/text_file.hpp"

namespace hydra::data {
namespace {

using game::Event;
using game::EventType;
using game::Pai;
using game::Seat;
using nlohmann::json;

[[noreturn]] void field_error(const char* key, const std::string& what) {
  throw Error("field '" + std::string(key) + "': " + what);
}

const json& require(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end()) field_error(key, "missing");
  return *it;
}

int as_int(const json& v, const char* key, int lo, int hi) {
  if (!v.is_number_integer()) field_error(key, "expected an integer, got " + v.dump());
  const auto x = v.get<std::int64_t>();
  if (x < lo || x > hi) field_error(key, std::to_string(x) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
  return static_cast<int>(x);
}

int get_int(const json& j, const char* key, int lo, int hi) { return as_int(require(j, key), key, lo, hi); }
Seat get_seat(const json& j, const char* key) { return Seat(get_int(j, key, 0, game::kNumSeats - 1)); }

Pai as_pai(const json& v, const char* key) {
  if (!v.is_string()) field_error(key, "expected a tile name, got " + v.dump());
  try {
    return game::parse_mjai(v.get_ref<const std::string&>());
  } catch (const Error& e) {
    field_error(key, e.what());
  }
}
Pai get_pai(const json& j, const char* key) { return as_pai(require(j, key), key); }

template <typename Vec>
Vec get_pais(const json& v, const char* key) {
  if (!v.is_array()) field_error(key, "expected an array of tiles, got " + v.dump());
  Vec out;
  for (const json& t : v) {
    if (out.full()) field_error(key, "more than " + std::to_string(Vec::kCapacity) + " tiles");
    out.push_back(as_pai(t, key));
  }
  return out;
}

game::Scores get_scores(const json& v, const char* key) {
  if (!v.is_array() || v.size() != game::kNumSeats) field_error(key, "expected 4 integers, got " + v.dump());
  game::Scores s{};
  for (std::size_t p = 0; p < s.size(); ++p) s[p] = as_int(v[p], key, -100'000'000, 100'000'000);
  return s;
}

void parse_hora(const json& j, Event& e) {
  e.actor = get_seat(j, "actor");
  e.target = get_seat(j, "target");
  if (j.contains("pai")) e.pai = get_pai(j, "pai");
  for (const char* key : {"ura_markers", "uradora_markers"})
    if (j.contains(key)) e.ura_markers = get_pais<game::DoraMarkers>(j[key], key);
  if (j.contains("pao")) e.pao = get_seat(j, "pao");
  if (j.contains("yakus")) {
    e.detailed = true;
    const json& ys = j["yakus"];
    if (!ys.is_array()) field_error("yakus", "expected an array of [name, han] pairs");
    for (const json& y : ys) {
      if (!y.is_array() || y.size() != 2 || !y[0].is_string()) field_error("yakus", "expected [name, han], got " + y.dump());
      if (e.yakus.full()) field_error("yakus", "too many entries");
      try {
        e.yakus.push_back({game::parse_mjai_yaku(y[0].get_ref<const std::string&>()),
                           static_cast<std::uint8_t>(as_int(y[1], "yakus", 0, game::kYakumanHan))});
      } catch (const Error& err) {
        if (std::string_view(err.what()).starts_with("field")) throw;
        field_error("yakus", err.what());
      }
    }
    e.fu = static_cast<std::uint8_t>(get_int(j, "fu", 0, 255));
    e.fan = static_cast<std::uint8_t>(get_int(j, "fan", 0, 255));
    e.hora_points = get_int(j, "hora_points", 0, 10'000'000);
    if (j.contains("hora_tehais")) e.hora_tehais = get_pais<game::Tehai>(j["hora_tehais"], "hora_tehais");
  }
}

void parse_ryukyoku(const json& j, Event& e) {
  if (j.contains("reason")) {
    const json& r = j["reason"];
    if (!r.is_string()) field_error("reason", "expected a string");
    try {
      e.reason = game::parse_ryukyoku_reason(r.get_ref<const std::string&>());
    } catch (const Error& err) {
      field_error("reason", err.what());
    }
  }
  if (j.contains("tenpais")) {
    e.detailed = true;
    const json& t = require(j, "tenpais");
    if (!t.is_array() || t.size() != game::kNumSeats) field_error("tenpais", "expected 4 booleans");
    for (std::size_t p = 0; p < e.tenpais.size(); ++p) {
      if (!t[p].is_boolean()) field_error("tenpais", "expected 4 booleans");
      e.tenpais[p] = t[p].get<bool>();
    }
    if (j.contains("tehais")) {
      const json& hs = j["tehais"];
      if (!hs.is_array() || hs.size() != game::kNumSeats) field_error("tehais", "expected 4 hands");
      for (std::size_t p = 0; p < e.tehais.size(); ++p) e.tehais[p] = get_pais<game::Tehai>(hs[p], "tehais");
    }
  }
}

}  // namespace

ParsedLine parse_mjai_line(std::string_view line) {
  json j;
  try {
    j = json::parse(line);
  } catch (const json::parse_error& err) {
    std::string what = err.what();  // "[json.exception.parse_error.101] parse error at ..."
    if (const auto pos = what.find("] "); pos != std::string::npos) what = what.substr(pos + 2);
    throw Error("broken JSON: " + what);
  }
  if (!j.is_object()) throw Error("broken JSON: an event must be a JSON object");
  const json& type = require(j, "type");
  if (!type.is_string()) field_error("type", "expected a string");
  ParsedLine out;
  Event& e = out.event;
  try {
    e.type = game::parse_event_type(type.get_ref<const std::string&>());
  } catch (const Error& err) {
    field_error("type", err.what());
  }
  std::uint8_t& given = out.given;
  if (j.contains("scores")) {
    e.scores = get_scores(j["scores"], "scores");
    given |= kGivenScores;
  }
  if (j.contains("deltas")) {
    e.deltas = get_scores(j["deltas"], "deltas");
    given |= kGivenDeltas;
  }
  switch (e.type) {
    case EventType::start_game:
      if (j.contains("names")) {
        const json& n = j["names"];
        if (!n.is_array() || n.size() != game::kNumSeats) field_error("names", "expected 4 names");
        for (std::size_t p = 0; p < out.names.size(); ++p) {
          if (!n[p].is_string()) field_error("names", "expected 4 strings");
          out.names[p] = n[p].get<std::string>();
        }
      }
      if (j.contains("uri") && j["uri"].is_string()) out.uri = j["uri"].get<std::string>();
      break;
    case EventType::start_kyoku: {
      const Pai wind = get_pai(j, "bakaze");
      if (!wind.type().is_wind() || wind.is_red()) field_error("bakaze", "expected E, S, W or N");
      e.bakaze = wind.type();
      e.kyoku = static_cast<std::uint8_t>(get_int(j, "kyoku", 1, 4));
      e.honba = static_cast<std::uint8_t>(get_int(j, "honba", 0, 255));
      if (j.contains("kyotaku")) {
        e.kyotaku = static_cast<std::uint8_t>(get_int(j, "kyotaku", 0, 255));
        given |= kGivenKyotaku;
      }
      e.oya = get_seat(j, "oya");
      e.dora_marker = get_pai(j, "dora_marker");
      const json& hs = require(j, "tehais");
      if (!hs.is_array() || hs.size() != game::kNumSeats) field_error("tehais", "expected 4 hands of 13 tiles");
      for (std::size_t p = 0; p < e.tehais.size(); ++p) {
        e.tehais[p] = get_pais<game::Tehai>(hs[p], "tehais");
        if (e.tehais[p].size() != 13) field_error("tehais", "seat " + std::to_string(p) + " has " + std::to_string(e.tehais[p].size()) + " tiles, not 13");
      }
      break;
    }
    case EventType::tsumo:
      e.actor = get_seat(j, "actor");
      e.pai = get_pai(j, "pai");
      break;
    case EventType::dahai: {
      e.actor = get_seat(j, "actor");
      e.pai = get_pai(j, "pai");
      const json& t = require(j, "tsumogiri");
      if (!t.is_boolean()) field_error("tsumogiri", "expected true or false");
      e.tsumogiri = t.get<bool>();
      break;
    }
    case EventType::chi:
    case EventType::pon:
    case EventType::daiminkan:
    case EventType::kakan:
    case EventType::ankan: {
      e.actor = get_seat(j, "actor");
      if (game::takes_discard(e.type)) e.target = get_seat(j, "target");
      if (e.type != EventType::ankan) e.pai = get_pai(j, "pai");
      e.consumed = get_pais<game::Consumed>(require(j, "consumed"), "consumed");
      const int want = e.type == EventType::chi || e.type == EventType::pon ? 2 : e.type == EventType::daiminkan ? 3
                       : e.type == EventType::kakan                          ? 3
                                                                             : 4;
      if (e.consumed.size() != want)
        field_error("consumed", std::to_string(e.consumed.size()) + " tiles, a " + std::string(game::to_string(e.type)) + " takes " + std::to_string(want));
      break;
    }
    case EventType::dora:
      e.dora_marker = get_pai(j, "dora_marker");
      break;
    case EventType::reach:
    case EventType::reach_accepted:
      e.actor = get_seat(j, "actor");
      break;
    case EventType::hora:
      parse_hora(j, e);
      break;
    case EventType::ryukyoku:
      parse_ryukyoku(j, e);
      break;
    case EventType::end_kyoku:
    case EventType::end_game:
    case EventType::none:
      break;
  }
  return out;
}

std::string to_mjai_line(const Event& e, const GameLog& log) {
  nlohmann::ordered_json j;
  j["type"] = game::to_string(e.type);
  auto pais = [](const auto& v) {
    json a = json::array();
    for (Pai p : v) a.push_back(game::mjai_name(p));
    return a;
  };
  switch (e.type) {
    case EventType::start_game:
      j["names"] = log.names;
      if (!log.uri.empty()) j["uri"] = log.uri;
      break;
    case EventType::start_kyoku: {
      j["bakaze"] = game::wind_name(e.bakaze);
      j["dora_marker"] = game::mjai_name(e.dora_marker);
      j["kyoku"] = e.kyoku;
      j["honba"] = e.honba;
      j["kyotaku"] = e.kyotaku;
      j["oya"] = e.oya.index();
      j["scores"] = e.scores;
      json hands = json::array();
      for (const auto& h : e.tehais) hands.push_back(pais(h));
      j["tehais"] = std::move(hands);
      break;
    }
    case EventType::tsumo:
      j["actor"] = e.actor.index();
      j["pai"] = game::mjai_name(e.pai);
      break;
    case EventType::dahai:
      j["actor"] = e.actor.index();
      j["pai"] = game::mjai_name(e.pai);
      j["tsumogiri"] = e.tsumogiri;
      break;
    case EventType::chi:
    case EventType::pon:
    case EventType::daiminkan:
    case EventType::kakan:
    case EventType::ankan:
      j["actor"] = e.actor.index();
      if (game::takes_discard(e.type)) j["target"] = e.target.index();
      if (e.type != EventType::ankan) j["pai"] = game::mjai_name(e.pai);
      j["consumed"] = pais(e.consumed);
      break;
    case EventType::dora:
      j["dora_marker"] = game::mjai_name(e.dora_marker);
      break;
    case EventType::reach:
      j["actor"] = e.actor.index();
      break;
    case EventType::reach_accepted:
      j["actor"] = e.actor.index();
      j["deltas"] = e.deltas;
      j["scores"] = e.scores;
      break;
    case EventType::hora:
      j["actor"] = e.actor.index();
      j["target"] = e.target.index();
      if (!e.pai.is_unknown()) j["pai"] = game::mjai_name(e.pai);
      j["deltas"] = e.deltas;
      j["ura_markers"] = pais(e.ura_markers);
      if (e.pao.valid()) j["pao"] = e.pao.index();
      if (e.detailed) {
        j["hora_tehais"] = pais(e.hora_tehais);
        json ys = json::array();
        for (const auto& y : e.yakus) ys.push_back(json::array({game::to_string(y.yaku), y.han}));
        j["yakus"] = std::move(ys);
        j["fu"] = e.fu;
        j["fan"] = e.fan;
        j["hora_points"] = e.hora_points;
      }
      j["scores"] = e.scores;
      break;
    case EventType::ryukyoku:
      if (e.reason != game::RyukyokuReason::unknown) j["reason"] = game::to_string(e.reason);
      j["deltas"] = e.deltas;
      if (e.detailed) {
        j["tenpais"] = e.tenpais;
        json hands = json::array();
        for (const auto& h : e.tehais) hands.push_back(pais(h));
        j["tehais"] = std::move(hands);
      }
      j["scores"] = e.scores;
      break;
    case EventType::end_game:
      j["scores"] = e.scores;
      break;
    case EventType::end_kyoku:
    case EventType::none:
      break;
  }
  return j.dump();
}

GameLog read_mjai(const std::filesystem::path& path) {
  GameLog log;
  std::vector<std::uint8_t> given;
  std::vector<int> lines;  // source line of each event, for the normaliser's messages
  LineReader reader(path);
  std::string_view line;
  while (reader.next(line)) {
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;  // blank lines
    ParsedLine parsed;
    try {
      parsed = parse_mjai_line(line);
    } catch (const Error& e) {
      throw Error(path.string() + ":" + std::to_string(reader.line_number()) + ": " + e.what());
    }
    if (parsed.event.type == EventType::start_game) {
      log.names = std::move(parsed.names);
      log.uri = std::move(parsed.uri);
    }
    log.events.push_back(parsed.event);
    given.push_back(parsed.given);
    lines.push_back(reader.line_number());
  }
  const int last_line = reader.line_number();
  normalize(log, given, [&](std::size_t i) {
    return path.string() + ":" + std::to_string(i < lines.size() ? lines[i] : last_line);
  });
  return log;
}

std::string to_mjai_text(const GameLog& log) {
  std::string out;
  for (const Event& e : log.events) {
    out += to_mjai_line(e, log);
    out += '\n';
  }
  return out;
}

void write_mjai(const std::filesystem::path& path, const GameLog& log) {
  const std::string text = to_mjai_text(log);
  write_file_atomic(path, path.extension() == ".gz" ? gzip_compress(text) : text);
}

}  // namespace hydra::data
