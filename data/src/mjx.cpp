#include "hydra/data/mjx.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

#include "hydra/common/error.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/text.hpp"
#include "hydra/data/text_file.hpp"
#include "hydra/common/index.hpp"

namespace hydra::data {
namespace {

using json = nlohmann::json;

constexpr std::pair<std::string_view, MjxEventType> kTypes[] = {
    {"EVENT_TYPE_DISCARD", MjxEventType::discard},
    {"EVENT_TYPE_TSUMOGIRI", MjxEventType::tsumogiri},
    {"EVENT_TYPE_RIICHI", MjxEventType::riichi},
    {"EVENT_TYPE_CLOSED_KAN", MjxEventType::closed_kan},
    {"EVENT_TYPE_ADDED_KAN", MjxEventType::added_kan},
    {"EVENT_TYPE_TSUMO", MjxEventType::tsumo},
    {"EVENT_TYPE_ABORTIVE_DRAW_NINE_TERMINALS", MjxEventType::abortive_nine_terminals},
    {"EVENT_TYPE_CHI", MjxEventType::chi},
    {"EVENT_TYPE_PON", MjxEventType::pon},
    {"EVENT_TYPE_OPEN_KAN", MjxEventType::open_kan},
    {"EVENT_TYPE_NEW_DORA", MjxEventType::new_dora},
    {"EVENT_TYPE_RIICHI_SCORE_CHANGE", MjxEventType::riichi_score_change},
    {"EVENT_TYPE_RON", MjxEventType::ron},
    {"EVENT_TYPE_DRAW", MjxEventType::draw},
    {"EVENT_TYPE_ABORTIVE_DRAW_FOUR_RIICHIS", MjxEventType::abortive_four_riichis},
    {"EVENT_TYPE_ABORTIVE_DRAW_THREE_RONS", MjxEventType::abortive_three_rons},
    {"EVENT_TYPE_ABORTIVE_DRAW_FOUR_KANS", MjxEventType::abortive_four_kans},
    {"EVENT_TYPE_ABORTIVE_DRAW_FOUR_WINDS", MjxEventType::abortive_four_winds},
    {"EVENT_TYPE_EXHAUSTIVE_DRAW_NORMAL", MjxEventType::exhaustive_draw_normal},
    {"EVENT_TYPE_EXHAUSTIVE_DRAW_NAGASHI_MANGAN", MjxEventType::exhaustive_draw_nagashi_mangan},
};

int int_field(const json& o, const char* key, int lo, int hi, const std::string& where) {
  if (!o.is_object()) throw Error(where + ": an object expected");
  if (!o.contains(key)) return 0;  // the protobuf default
  const json& x = o[key];
  if (!x.is_number_integer()) throw Error(where + ": \"" + key + "\" must be an integer");
  const auto v = x.get<std::int64_t>();
  if (v < lo || v > hi) throw Error(where + ": \"" + key + "\" = " + std::to_string(v) + " is out of range");
  return static_cast<int>(v);
}

std::vector<int> ids(const json& o, const char* key, std::size_t max, const std::string& where) {
  std::vector<int> out;
  if (!o.is_object() || !o.contains(key)) return out;
  const json& a = o[key];
  if (!a.is_array() || a.size() > max) throw Error(where + ": \"" + key + "\" must be a list of at most " + std::to_string(max) + " tile ids");
  for (const json& x : a) {
    if (!x.is_number_integer() || x.get<std::int64_t>() < 0 || x.get<std::int64_t>() >= game::kNumTiles)
      throw Error(where + ": \"" + key + "\" holds something other than a tile id");
    out.push_back(x.get<int>());
  }
  return out;
}

game::Scores scores(const json& o, const char* key, const std::string& where) {
  if (!o.is_object() || !o.contains(key) || !o[key].is_array() || o[key].size() != game::kNumSeats)
    throw Error(where + ": \"" + key + "\" must be a list of 4 scores");
  game::Scores s{};
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (!o[key][i].is_number_integer()) throw Error(where + ": \"" + key + "\" must hold integers");
    s[i] = o[key][i].get<std::int32_t>();
  }
  return s;
}

const json& object(const json& o, const char* key, const std::string& where) {
  if (!o.is_object() || !o.contains(key) || !o[key].is_object()) throw Error(where + ": no \"" + key + "\" object");
  return o[key];
}

MjxKyoku parse_kyoku(const json& s, const std::string& where) {
  MjxKyoku k;
  const json& hidden = object(s, "hiddenState", where);
  const std::vector<int> wall = ids(hidden, "wall", game::kNumTiles, where);
  if (wall.size() != static_cast<std::size_t>(game::kNumTiles)) throw Error(where + ": the wall must hold 136 tiles");
  k.wall = wall_from_mjx(wall);
  k.ura_indicators = ids(hidden, "uraDoraIndicators", 5, where);
  const json& pub = object(s, "publicObservation", where);
  const json& init = object(pub, "initScore", where);
  k.round = int_field(init, "round", 0, 15, where);
  k.honba = int_field(init, "honba", 0, 255, where);
  k.riichi = int_field(init, "riichi", 0, 255, where);
  k.init_scores = scores(init, "tens", where);
  k.dora_indicators = ids(pub, "doraIndicators", 5, where);
  if (k.dora_indicators.empty()) throw Error(where + ": no dora indicator");
  if (!pub.contains("events") || !pub["events"].is_array()) throw Error(where + ": no \"events\" list");
  for (const json& e : pub["events"]) {
    MjxEvent ev;
    if (e.contains("type")) {
      if (!e["type"].is_string()) throw Error(where + ": an event type must be a name");
      const std::string name = e["type"].get<std::string>();
      const auto* it = std::find_if(std::begin(kTypes), std::end(kTypes), [&](const auto& p) { return p.first == name; });
      if (it == std::end(kTypes)) throw Error(where + ": unknown event type " + text::excerpt(name));
      ev.type = it->second;
    }
    ev.who = int_field(e, "who", 0, game::kNumSeats - 1, where);
    ev.tile = int_field(e, "tile", 0, game::kNumTiles - 1, where);
    ev.open = static_cast<unsigned>(int_field(e, "open", 0, 65535, where));
    k.events.push_back(ev);
  }
  if (!s.contains("privateObservations") || !s["privateObservations"].is_array() || s["privateObservations"].size() != game::kNumSeats)
    throw Error(where + ": \"privateObservations\" must hold the 4 seats");
  for (const json& p : s["privateObservations"]) {
    const int who = int_field(p, "who", 0, game::kNumSeats - 1, where);
    k.draws[ix(who)] = ids(p, "drawHistory", 40, where);
    if (p.contains("initHand")) k.init_hands[ix(who)] = ids(p["initHand"], "closedTiles", 13, where);
  }
  const json& term = object(s, "roundTerminal", where);
  const json& fin = object(term, "finalScore", where);
  k.final_scores = scores(fin, "tens", where);
  k.final_riichi = int_field(fin, "riichi", 0, 255, where);
  k.game_over = term.contains("isGameOver") && term["isGameOver"].is_boolean() && term["isGameOver"].get<bool>();
  if (term.contains("wins")) {
    if (!term["wins"].is_array() || term["wins"].empty() || term["wins"].size() > 3) throw Error(where + ": \"wins\" must list 1-3 wins");
    for (const json& w : term["wins"]) {
      MjxWin win;
      win.who = int_field(w, "who", 0, game::kNumSeats - 1, where);
      win.from_who = int_field(w, "fromWho", 0, game::kNumSeats - 1, where);
      win.win_tile = int_field(w, "winTile", 0, game::kNumTiles - 1, where);
      win.ten_changes = scores(w, "tenChanges", where);
      k.wins.push_back(win);
    }
  } else {
    k.no_winner = true;
    k.no_winner_changes = scores(object(term, "noWinner", where), "tenChanges", where);
  }
  return k;
}

}  // namespace

game::Wall::Tiles wall_from_mjx(const std::vector<int>& w) {
  if (w.size() != static_cast<std::size_t>(game::kNumTiles)) throw Error("an mjx wall must hold 136 tiles");
  game::Wall::Tiles t{};
  auto at = [&](int i) { return game::Tile(w[ix(i)]); };
  for (int i = 0; i < game::Wall::kDeadBegin; ++i) t[ix(i)] = at(i);
  constexpr int kRinshan[game::Wall::kMaxKans] = {134, 135, 132, 133};  // mjx's Wall::KanDraw
  for (int kan = 0; kan < game::Wall::kMaxKans; ++kan)
    t[static_cast<std::size_t>(game::Wall::rinshan_index(kan))] = at(kRinshan[kan]);
  for (int i = 0; i < game::Wall::kMaxIndicators; ++i) {
    t[static_cast<std::size_t>(game::Wall::dora_index(i))] = at(130 - 2 * i);
    t[static_cast<std::size_t>(game::Wall::ura_index(i))] = at(131 - 2 * i);
  }
  return t;  // game::Wall's constructor checks that it is a permutation
}

std::vector<MjxKyoku> parse_mjx(std::string_view text, const std::string& name) {
  std::vector<MjxKyoku> out;
  std::size_t line = 0, pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view l = text.substr(pos, end - pos);
    pos = end + 1;
    ++line;
    if (l.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string where = name + ":" + std::to_string(line);
    json s;
    try {
      s = hydra::json::parse(l);
    } catch (const hydra::json::ParseError& e) {
      throw Error(where + ": not JSON: " + e.what());
    }
    out.push_back(parse_kyoku(s, where));
  }
  if (out.empty()) throw Error(name + ": no kyoku");
  return out;
}

std::vector<MjxKyoku> read_mjx(const std::filesystem::path& path) { return parse_mjx(read_text_file(path), path.string()); }

}  // namespace hydra::data
