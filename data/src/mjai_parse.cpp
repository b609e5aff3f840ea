// One mjai JSON line -> Event, with simdjson's DOM parser: about 9x faster than nlohmann_json's
// DOM on these short lines (bench_logs: ParseJson), which matters when pretraining streams
// millions of events. Every field error names the field.

#include <cmath>
#include <limits>

#include <simdjson.h>

#include "hydra/common/json.hpp"
#include "hydra/common/text.hpp"
#include "hydra/game/action.hpp"
#include "hydra/data/mjai.hpp"

namespace hydra::data {
namespace {

using game::Event;
using game::EventType;
using game::Pai;
using game::Seat;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

[[noreturn]] void field_error(const char* key, const std::string& what) {
  throw Error("field '" + std::string(key) + "': " + what);
}

// A value quoted into a message: bounded, whatever the line held.
std::string dump(const element& v) { return text::excerpt(simdjson::minify(v)); }

// simdjson's parser with Hydra's JSON depth bound (hydra/common/json.hpp) instead of its default
// of 1024: an mjai event nests three levels.
simdjson::dom::parser bounded_parser() {
  simdjson::dom::parser parser;
  if (parser.allocate(std::size_t{64} << 10, json::kMaxDepth))
    throw Error("cannot allocate the mjai JSON parser");
  return parser;
}

bool has(const object& o, const char* key) { return !o.at_key(key).error(); }

element require(const object& o, const char* key) {
  element v;
  if (o.at_key(key).get(v)) field_error(key, "missing");
  return v;
}

int as_int(const element& v, const char* key, std::int64_t lo, std::int64_t hi) {
  std::int64_t x = 0;
  if (v.type() != element_type::INT64 || v.get_int64().get(x))
    field_error(key, "expected an integer, got " + dump(v));
  if (x < lo || x > hi) field_error(key, std::to_string(x) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
  return static_cast<int>(x);
}
int get_int(const object& o, const char* key, int lo, int hi) { return as_int(require(o, key), key, lo, hi); }
Seat get_seat(const object& o, const char* key) { return Seat(get_int(o, key, 0, game::kNumSeats - 1)); }

std::string_view as_string(const element& v, const char* key, const char* expected) {
  std::string_view s;
  if (v.get_string().get(s)) field_error(key, std::string("expected ") + expected + ", got " + dump(v));
  return s;
}

Pai as_pai(const element& v, const char* key) {
  const std::string_view name = as_string(v, key, "a tile name");
  try {
    return game::parse_mjai(name);
  } catch (const Error& e) {
    field_error(key, e.what());
  }
}
Pai get_pai(const object& o, const char* key) { return as_pai(require(o, key), key); }

simdjson::dom::array as_array(const element& v, const char* key, const char* expected) {
  simdjson::dom::array a;
  if (v.get_array().get(a)) field_error(key, std::string("expected ") + expected + ", got " + dump(v));
  return a;
}

template <typename Vec>
Vec get_pais(const element& v, const char* key) {
  Vec out;
  for (const element t : as_array(v, key, "an array of tiles")) {
    if (out.full()) field_error(key, "more than " + std::to_string(Vec::kCapacity) + " tiles");
    out.push_back(as_pai(t, key));
  }
  return out;
}

game::Scores get_scores(const element& v, const char* key) {
  const auto a = as_array(v, key, "4 integers");
  if (a.size() != game::kNumSeats) field_error(key, "expected 4 integers, got " + dump(v));
  game::Scores s{};
  std::size_t p = 0;
  for (const element x : a) s[p++] = as_int(x, key, -100'000'000, 100'000'000);
  return s;
}

template <std::size_t N>
std::array<game::Tehai, N> get_hands(const element& v, const char* key) {
  const auto a = as_array(v, key, "4 hands");
  if (a.size() != N) field_error(key, "expected 4 hands");
  std::array<game::Tehai, N> out{};
  std::size_t p = 0;
  for (const element h : a) out[p++] = get_pais<game::Tehai>(h, key);
  return out;
}

void parse_hora(const object& o, Event& e) {
  e.actor = get_seat(o, "actor");
  e.target = get_seat(o, "target");
  if (has(o, "pai")) e.pai = get_pai(o, "pai");
  for (const char* key : {"ura_markers", "uradora_markers"})
    if (has(o, key)) e.ura_markers = get_pais<game::DoraMarkers>(require(o, key), key);
  if (has(o, "pao")) e.pao = get_seat(o, "pao");
  if (!has(o, "yakus")) return;
  e.detailed = true;
  for (const element y : as_array(require(o, "yakus"), "yakus", "an array of [name, han] pairs")) {
    simdjson::dom::array pair;
    if (y.get_array().get(pair) || pair.size() != 2) field_error("yakus", "expected [name, han], got " + dump(y));
    if (e.yakus.full()) field_error("yakus", "too many entries");
    const std::string_view name = as_string(pair.at(0).value(), "yakus", "a yaku name");
    game::MjaiYaku yaku{};
    try {
      yaku = game::parse_mjai_yaku(name);
    } catch (const Error& err) {
      field_error("yakus", err.what());
    }
    e.yakus.push_back({yaku, static_cast<std::uint8_t>(as_int(pair.at(1).value(), "yakus", 0, game::kYakumanHan))});
  }
  e.fu = static_cast<std::uint8_t>(get_int(o, "fu", 0, 255));
  e.fan = static_cast<std::uint8_t>(get_int(o, "fan", 0, 255));
  e.hora_points = get_int(o, "hora_points", 0, 10'000'000);
  if (has(o, "hora_tehais")) e.hora_tehais = get_pais<game::Tehai>(require(o, "hora_tehais"), "hora_tehais");
}

void parse_ryukyoku(const object& o, Event& e) {
  if (has(o, "reason")) {
    try {
      e.reason = game::parse_ryukyoku_reason(as_string(require(o, "reason"), "reason", "a string"));
    } catch (const Error& err) {
      if (std::string_view(err.what()).starts_with("field")) throw;
      field_error("reason", err.what());
    }
  }
  if (!has(o, "tenpais")) return;
  e.detailed = true;
  const auto t = as_array(require(o, "tenpais"), "tenpais", "4 booleans");
  if (t.size() != game::kNumSeats) field_error("tenpais", "expected 4 booleans");
  std::size_t p = 0;
  for (const element b : t)
    if (b.get_bool().get(e.tenpais[p++])) field_error("tenpais", "expected 4 booleans");
  if (has(o, "tehais")) e.tehais = get_hands<game::kNumSeats>(require(o, "tehais"), "tehais");
}

void parse_call(const object& o, Event& e) {
  e.actor = get_seat(o, "actor");
  if (game::takes_discard(e.type)) e.target = get_seat(o, "target");
  if (e.type != EventType::ankan) e.pai = get_pai(o, "pai");
  e.consumed = get_pais<game::Consumed>(require(o, "consumed"), "consumed");
  int want = 4;
  if (e.type == EventType::chi || e.type == EventType::pon) want = 2;
  if (e.type == EventType::daiminkan || e.type == EventType::kakan) want = 3;
  if (e.consumed.size() != want)
    field_error("consumed", std::to_string(e.consumed.size()) + " tiles, a " + std::string(game::to_string(e.type)) +
                                " takes " + std::to_string(want));
}

void parse_start_kyoku(const object& o, Event& e, std::uint8_t& given) {
  const Pai wind = get_pai(o, "bakaze");
  if (!wind.type().is_wind() || wind.is_red()) field_error("bakaze", "expected E, S, W or N");
  e.bakaze = wind.type();
  e.kyoku = static_cast<std::uint8_t>(get_int(o, "kyoku", 1, 4));
  e.honba = static_cast<std::uint8_t>(get_int(o, "honba", 0, 255));
  if (has(o, "kyotaku")) {
    e.kyotaku = static_cast<std::uint8_t>(get_int(o, "kyotaku", 0, 255));
    given |= kGivenKyotaku;
  }
  e.oya = get_seat(o, "oya");
  e.dora_marker = get_pai(o, "dora_marker");
  e.tehais = get_hands<game::kNumSeats>(require(o, "tehais"), "tehais");
  for (std::size_t p = 0; p < e.tehais.size(); ++p)
    if (e.tehais[p].size() != 13)
      field_error("tehais", "seat " + std::to_string(p) + " has " + std::to_string(e.tehais[p].size()) + " tiles, not 13");
}

void parse_start_game(const object& o, ParsedLine& out) {
  if (has(o, "names")) {
    const auto n = as_array(require(o, "names"), "names", "4 names");
    if (n.size() != game::kNumSeats) field_error("names", "expected 4 names");
    std::size_t p = 0;
    for (const element x : n) out.names[p++] = std::string(as_string(x, "names", "4 strings"));
  }
  if (has(o, "uri")) {
    std::string_view uri;
    if (!require(o, "uri").get_string().get(uri)) out.uri = std::string(uri);
  }
}

// Hydra's search note (game_log.hpp SearchNote): "meta": {"search": {"actions": [...], "values":
// [...], "deals": N}}; any other "meta" (Mortal writes its q-values there) is not read.
void parse_search_note(const object& o, ParsedLine& out) {
  object meta;
  if (require(o, "meta").get_object().get(meta) || !has(meta, "search")) return;
  object s;
  if (require(meta, "search").get_object().get(s)) field_error("meta.search", "expected an object");
  SearchNote note;
  for (const element a : as_array(require(s, "actions"), "meta.search.actions", "an array of actions"))
    note.actions.push_back(as_int(a, "meta.search.actions", 0, game::kNumActions - 1));
  for (const element v : as_array(require(s, "values"), "meta.search.values", "an array of numbers")) {
    double x = 0;
    if (v.get_double().get(x) || !(std::abs(x) <= std::numeric_limits<float>::max()))
      field_error("meta.search.values", "expected a number within a float's range, got " + dump(v));
    note.values.push_back(static_cast<float>(x));
  }
  note.deals = as_int(require(s, "deals"), "meta.search.deals", 1, std::numeric_limits<int>::max());
  if (note.actions.size() < 2 || note.actions.size() > kMaxSearchCandidates)
    field_error("meta.search.actions", std::to_string(note.actions.size()) + " candidates, not 2.." +
                                           std::to_string(kMaxSearchCandidates));
  if (note.values.size() != note.actions.size())
    field_error("meta.search.values", std::to_string(note.values.size()) + " values for " +
                                          std::to_string(note.actions.size()) + " actions");
  for (std::size_t i = 0; i < note.actions.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (note.actions[i] == note.actions[j])
        field_error("meta.search.actions", "action " + std::to_string(note.actions[i]) + " twice");
  out.search = std::move(note);
}

}  // namespace

ParsedLine parse_mjai_line(std::string_view line) {
  // One parser per thread: simdjson reuses its buffers, which is where the speed comes from.
  thread_local simdjson::dom::parser parser = bounded_parser();
  element root;
  if (const auto err = parser.parse(line.data(), line.size()).get(root))
    throw Error(std::string("broken JSON: ") + simdjson::error_message(err));
  object o;
  if (root.get_object().get(o)) throw Error("broken JSON: an event must be a JSON object");
  ParsedLine out;
  Event& e = out.event;
  try {
    e.type = game::parse_event_type(as_string(require(o, "type"), "type", "a string"));
  } catch (const Error& err) {
    if (std::string_view(err.what()).starts_with("field")) throw;
    field_error("type", err.what());
  }
  if (has(o, "scores")) {
    e.scores = get_scores(require(o, "scores"), "scores");
    out.given |= kGivenScores;
  }
  if (has(o, "deltas")) {
    e.deltas = get_scores(require(o, "deltas"), "deltas");
    out.given |= kGivenDeltas;
  }
  switch (e.type) {
    case EventType::start_game: parse_start_game(o, out); break;
    case EventType::start_kyoku: parse_start_kyoku(o, e, out.given); break;
    case EventType::tsumo:
      e.actor = get_seat(o, "actor");
      e.pai = get_pai(o, "pai");
      break;
    case EventType::dahai: {
      e.actor = get_seat(o, "actor");
      e.pai = get_pai(o, "pai");
      if (require(o, "tsumogiri").get_bool().get(e.tsumogiri)) field_error("tsumogiri", "expected true or false");
      break;
    }
    case EventType::chi:
    case EventType::pon:
    case EventType::daiminkan:
    case EventType::kakan:
    case EventType::ankan: parse_call(o, e); break;
    case EventType::dora: e.dora_marker = get_pai(o, "dora_marker"); break;
    case EventType::reach:
    case EventType::reach_accepted: e.actor = get_seat(o, "actor"); break;
    case EventType::hora: parse_hora(o, e); break;
    case EventType::ryukyoku: parse_ryukyoku(o, e); break;
    case EventType::end_kyoku:
    case EventType::end_game:
    case EventType::none: break;
  }
  if (has(o, "meta")) parse_search_note(o, out);
  return out;
}

}  // namespace hydra::data
