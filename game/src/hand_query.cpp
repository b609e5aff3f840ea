// hand_query.hpp: one hand evaluated for `hydra hand` and its --batch lines.

#include "hydra/game/hand_query.hpp"

#include <array>
#include <string>
#include <vector>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/text.hpp"
#include "hydra/game/agari.hpp"
#include "hydra/game/hand.hpp"
#include "hydra/game/score.hpp"
#include "hydra/game/shanten.hpp"

namespace hydra::game {
namespace {

using Json = nlohmann::ordered_json;

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

}  // namespace

HandQuery parse_hand_query(const std::string& line, int number) {
  const std::string where = "batch line " + std::to_string(number);
  nlohmann::json j;
  try {
    j = json::parse(line);
  } catch (const json::ParseError& e) {
    throw Error(where + ": not JSON: " + e.what());
  }
  if (!j.is_object()) throw Error(where + ": expected a JSON object");
  HandQuery o;
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

Json evaluate_hand(const HandQuery& o, const TableRules& rules) {
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

std::string hand_batch_line(const std::string& line, int number, const TableRules& rules) {
  Json out;
  try {
    out = evaluate_hand(parse_hand_query(line, number), rules);
  } catch (const Error& e) {
    out = Json{{"error", e.what()}};
  }
  out["line"] = number;
  return json::dump(out);
}

}  // namespace hydra::game
