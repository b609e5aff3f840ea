#include "hydra/game/score_check.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "hydra/common/error.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/read_file.hpp"
#include "hydra/common/text.hpp"
#include "hydra/game/agari.hpp"
#include "hydra/game/shanten.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {
namespace {

using Json = nlohmann::json;

Json read_json(const std::filesystem::path& file) {
  try {
    return json::parse(read_file(file));
  } catch (const json::ParseError& e) {
    throw Error("'" + file.string() + "' is not valid JSON: " + e.what());
  }
}

// Field access with messages that name the file, the case and the field.
struct Where {
  const std::filesystem::path& file;
  int index;
  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw Error("'" + file.string() + "' case " + std::to_string(index) + ": " + field + ": " + what);
  }
  const Json& get(const Json& j, const char* key) const {
    if (!j.is_object() || !j.contains(key)) fail(key, "missing");
    return j.at(key);
  }
  int integer(const Json& j, const char* key) const {
    const Json& v = get(j, key);
    if (!v.is_number_integer()) fail(key, "expected an integer, got " + json::excerpt(v));
    return v.get<int>();
  }
  bool boolean(const Json& j, const char* key) const {
    const Json& v = get(j, key);
    if (v.is_boolean()) return v.get<bool>();
    if (v.is_number_integer()) return v.get<int>() != 0;
    fail(key, "expected true/false, got " + json::excerpt(v));
  }
  std::string string(const Json& j, const char* key) const {
    const Json& v = get(j, key);
    if (!v.is_string()) fail(key, "expected a string, got " + json::excerpt(v));
    return v.get<std::string>();
  }
  // Runs f, turning a hydra::Error from a parser into one that names the case and field.
  template <class F>
  auto guard(const char* field, F&& f) const {
    try {
      return f();
    } catch (const Error& e) {
      fail(field, e.what());
    }
  }
};

Wind wind_of(int v, const Where& w, const char* field) {
  if (v < 0 || v > 3) w.fail(field, "wind " + std::to_string(v) + " is not 0-3");
  return static_cast<Wind>(v);
}

constexpr std::array<const char*, 4> kWindKanji = {"東", "南", "西", "北"};

// "z5", "p0": one kobalab tile.
Pai kobalab_tile(std::string_view s) {
  const auto tiles = parse_kobalab_tiles(s);
  if (tiles.size() != 1) throw Error("'" + text::excerpt(s) + "' is not one tile");
  return tiles[0];
}

std::string show(const std::vector<std::pair<std::string, int>>& yaku) {
  std::string out;
  for (const auto& [name, han] : yaku) {
    if (!out.empty()) out += ' ';
    out += name + ":" + std::to_string(han);
  }
  return out;
}

std::string show(const std::vector<int>& v) {
  std::string out;
  for (int x : v) {
    if (!out.empty()) out += ',';
    out += std::to_string(x);
  }
  out.insert(out.begin(), '[');
  out += ']';
  return out;
}

}  // namespace

std::string CheckReport::summary() const {
  return "checked " + std::to_string(checked) + ", agree " + std::to_string(agree);
}

std::vector<Pai> parse_kobalab_tiles(std::string_view text) {
  std::vector<Pai> out;
  int base = -1;
  for (char c : text) {
    switch (c) {
      case 'm': base = 0; continue;
      case 'p': base = 9; continue;
      case 's': base = 18; continue;
      case 'z': base = 27; continue;
      default: break;
    }
    if (c < '0' || c > '9') throw Error("bad kobalab tiles '" + text::excerpt(text) + "': unexpected '" + text::excerpt(std::string_view(&c, 1)) + "'");
    if (base < 0) throw Error("bad kobalab tiles '" + text::excerpt(text) + "': digits before a suit letter");
    const int d = c - '0';
    if (base == 27 && (d < 1 || d > 7)) throw Error("bad kobalab tiles '" + text::excerpt(text) + "': honours are z1-z7");
    out.push_back(d == 0 ? Pai(TileType(base + 4), true) : Pai(TileType(base + d - 1)));
  }
  return out;
}

// ---- majiang ------------------------------------------------------------------------------

std::vector<MajiangCase> load_majiang_cases(const std::filesystem::path& file) {
  const Json root = read_json(file);
  if (!root.is_array()) throw Error("'" + file.string() + "': expected a JSON array of cases");
  std::vector<MajiangCase> cases;
  cases.reserve(root.size());
  for (std::size_t i = 0; i < root.size(); ++i) {
    const Where w{file, static_cast<int>(i)};
    const Json& in = w.get(root[i], "in");
    const Json& out = w.get(root[i], "out");
    const Json& param = w.get(in, "param");
    MajiangCase c;
    c.index = static_cast<int>(i);
    const std::string shoupai = w.string(in, "shoupai");
    c.text = shoupai;
    // Closed tiles, then melds after commas.
    std::vector<std::string> parts;
    for (std::size_t a = 0, b; a <= shoupai.size(); a = b + 1) {
      b = shoupai.find(',', a);
      if (b == std::string::npos) b = shoupai.size();
      parts.push_back(shoupai.substr(a, b - a));
    }
    std::vector<Pai> closed = w.guard("shoupai", [&] { return parse_kobalab_tiles(parts[0]); });
    std::vector<Meld> melds;
    for (std::size_t k = 1; k < parts.size(); ++k)
      if (!parts[k].empty()) melds.push_back(w.guard("shoupai", [&] { return parse_meld(parts[k]); }));
    Pai win;
    if (in.contains("rongpai")) {
      const std::string r = w.string(in, "rongpai");
      c.text += " " + r;
      if (r.size() != 3) w.fail("rongpai", "expected a tile and a seat mark, got '" + r + "'");
      win = w.guard("rongpai", [&] { return kobalab_tile(r.substr(0, 2)); });
      c.ctx.tsumo = false;
      c.ctx.ron_from = r[2] == '-' ? From::kamicha : r[2] == '=' ? From::toimen : r[2] == '+' ? From::shimocha : From::self;
      if (c.ctx.ron_from == From::self) w.fail("rongpai", "bad seat mark in '" + r + "'");
      closed.push_back(win);
    } else {
      if (closed.empty()) w.fail("shoupai", "no tiles");
      win = closed.back();  // the drawn tile is written last
      c.ctx.tsumo = true;
    }
    c.hand = w.guard("shoupai", [&] { return make_hand(closed, melds, c.text); });
    c.ctx.win_tile = win.type();
    c.ctx.round_wind = wind_of(w.integer(param, "zhuangfeng"), w, "zhuangfeng");
    c.ctx.seat_wind = wind_of(w.integer(param, "menfeng"), w, "menfeng");
    const Json& hupai = w.get(param, "hupai");
    if (hupai.contains("lizhi")) {
      const int l = w.integer(hupai, "lizhi");
      c.ctx.riichi = l == 1;
      c.ctx.double_riichi = l == 2;
    }
    if (hupai.contains("yifa")) c.ctx.ippatsu = w.boolean(hupai, "yifa");
    if (hupai.contains("qianggang")) c.ctx.chankan = w.boolean(hupai, "qianggang");
    if (hupai.contains("lingshang")) c.ctx.rinshan = w.boolean(hupai, "lingshang");
    if (hupai.contains("haidi")) {
      const int h = w.integer(hupai, "haidi");
      c.ctx.haitei = h == 1;
      c.ctx.houtei = h == 2;
    }
    if (hupai.contains("tianhu")) {
      const int t = w.integer(hupai, "tianhu");
      c.ctx.tenhou = t == 1;
      c.ctx.chiihou = t == 2;
    }
    for (const Json& t : w.get(param, "baopai"))
      w.guard("baopai", [&] { c.ctx.add_dora_indicator(kobalab_tile(t.get<std::string>()).type()); return 0; });
    const Json& ura = w.get(param, "fubaopai");
    if (ura.is_array())
      for (const Json& t : ura)
        w.guard("fubaopai", [&] { c.ctx.add_ura_indicator(kobalab_tile(t.get<std::string>()).type()); return 0; });
    const Json& jicun = w.get(param, "jicun");
    c.ctx.honba = w.integer(jicun, "changbang");
    c.ctx.riichi_sticks = w.integer(jicun, "lizhibang");
    w.guard("in", [&] { validate_win(c.hand, c.ctx); return 0; });

    for (const Json& y : w.get(out, "hupai")) {
      const Json& f = w.get(y, "fanshu");
      const int han = f.is_string() ? static_cast<int>(f.get<std::string>().size()) : f.get<int>();  // "*" / "**"
      c.yaku.emplace_back(w.string(y, "name"), han);
    }
    const Json& damanguan = w.get(out, "damanguan");
    c.yakuman = damanguan.is_null() ? 0 : damanguan.get<int>();
    c.fu = w.get(out, "fu").is_null() ? 0 : w.integer(out, "fu");
    c.han = w.get(out, "fanshu").is_null() ? 0 : w.integer(out, "fanshu");
    c.points = w.integer(out, "defen");
    const Json& fenpei = w.get(out, "fenpei");
    if (!fenpei.is_array() || fenpei.size() != 4) w.fail("fenpei", "expected four payments");
    for (std::size_t s = 0; s < 4; ++s) c.deltas[s] = fenpei[s].get<int>();
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<std::pair<std::string, int>> majiang_yaku(const WinResult& r, const WinContext& ctx) {
  std::vector<std::pair<std::string, int>> out;
  for (int i = 0; i < r.num_yaku; ++i) {
    const YakuHan& y = r.yaku[ix(i)];
    std::string name(yaku_info(y.yaku).japanese);
    if (y.yaku == Yaku::seat_wind) name += std::string(" ") + kWindKanji[ix(ctx.seat_wind)];
    if (y.yaku == Yaku::round_wind) name += std::string(" ") + kWindKanji[ix(ctx.round_wind)];
    out.emplace_back(name, y.han);
  }
  return out;
}

std::string diff_majiang(const MajiangCase& c, const WinResult& r) {
  if (!r.is_win()) return "expected a win, got " + std::string(r.status == WinStatus::no_yaku ? "no yaku" : "not complete");
  auto ours = majiang_yaku(r, c.ctx), theirs = c.yaku;
  std::sort(ours.begin(), ours.end());
  std::sort(theirs.begin(), theirs.end());
  std::string d;
  if (ours != theirs) d += " yaku {" + show(ours) + "} vs {" + show(theirs) + "}";
  if (r.fu != c.fu) d += " fu " + std::to_string(r.fu) + " vs " + std::to_string(c.fu);
  if (r.han != c.han) d += " han " + std::to_string(r.han) + " vs " + std::to_string(c.han);
  if (r.yakuman != c.yakuman) d += " yakuman " + std::to_string(r.yakuman) + " vs " + std::to_string(c.yakuman);
  if (r.points != c.points) d += " points " + std::to_string(r.points) + " vs " + std::to_string(c.points);
  if (r.deltas != c.deltas)
    d += " payments " + show(std::vector<int>(r.deltas.begin(), r.deltas.end())) + " vs " +
         show(std::vector<int>(c.deltas.begin(), c.deltas.end()));
  return d.empty() ? d : d.substr(1);
}

namespace {
// A table entry of an unexpected JSON type (a string where a number belongs) is the file's
// fault, not an internal error.
template <class F>
CheckReport guard_json(const std::filesystem::path& file, F&& f) {
  try {
    return f();
  } catch (const Json::exception& e) {
    throw Error("'" + file.string() + "': unexpected JSON: " + text::excerpt(e.what(), 200));
  }
}

}  // namespace

namespace {
CheckReport check_majiang_unguarded(const std::filesystem::path& file, const ScoringRules& rules, int max_listed) {
  CheckReport rep;
  rep.file = file.string();
  for (const MajiangCase& c : load_majiang_cases(file)) {
    ++rep.checked;
    const std::string d = diff_majiang(c, score_win(c.hand, c.ctx, rules));
    if (d.empty()) ++rep.agree;
    else if (static_cast<int>(rep.disagreements.size()) < max_listed)
      rep.disagreements.push_back("case " + std::to_string(c.index) + " " + c.text + ": " + d + " (ours vs theirs)");
  }
  return rep;
}
}  // namespace

CheckReport check_majiang(const std::filesystem::path& file, const ScoringRules& rules, int max_listed) {
  return guard_json(file, [&] { return check_majiang_unguarded(file, rules, max_listed); });
}

// ---- riichienv ----------------------------------------------------------------------------

namespace {

Pai pai_of_id(const Json& v, const Where& w, const char* field) {
  if (!v.is_number_integer() || v.get<int>() < 0 || v.get<int>() >= kNumTiles)
    w.fail(field, "expected a tile id 0-135, got " + json::excerpt(v));
  return Pai(Tile(v.get<int>()));
}

Meld riichienv_meld(const Json& m, const Where& w) {
  const std::string kind = w.string(m, "meld_type");
  std::vector<Pai> t;
  for (const Json& v : w.get(m, "tiles")) t.push_back(pai_of_id(v, w, "melds.tiles"));
  // from_who does not say which seat the tile came from relative to the winner in these files
  // (it is random there); it never changes the score, so every call is taken from kamicha.
  return w.guard("melds", [&] {
    if (kind == "chi" && t.size() == 3) return Meld::chi(t[0], t[1], t[2]);
    if (kind == "pon" && t.size() == 3) return Meld::pon(t[0], t[1], t[2], From::kamicha);
    if (kind == "daiminkan" && t.size() == 4) return Meld::daiminkan(t[0], {t[1], t[2], t[3]}, From::kamicha);
    if (kind == "kakan" && t.size() == 4) return Meld::kakan(Meld::pon(t[0], t[1], t[2], From::kamicha), t[3]);
    if (kind == "ankan" && t.size() == 4) return Meld::ankan({t[0], t[1], t[2], t[3]});
    throw Error("unknown meld '" + kind + "' with " + std::to_string(t.size()) + " tiles");
  });
}

Json cases_of(const std::filesystem::path& file) {
  Json root = read_json(file);
  if (!root.is_object() || !root.contains("cases") || !root["cases"].is_array())
    throw Error("'" + file.string() + "': expected an object with a \"cases\" array");
  return std::move(root["cases"]);
}

}  // namespace

std::vector<RiichiEnvCase> load_riichienv_agari(const std::filesystem::path& file) {
  const Json cases = cases_of(file);
  std::vector<RiichiEnvCase> out;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Where w{file, static_cast<int>(i)};
    const Json& j = cases[i];
    RiichiEnvCase c;
    c.index = static_cast<int>(i);
    std::vector<Pai> closed;
    for (const Json& v : w.get(j, "tiles_136")) closed.push_back(pai_of_id(v, w, "tiles_136"));
    const Pai win = pai_of_id(w.get(j, "win_tile_136"), w, "win_tile_136");
    std::vector<Meld> melds;
    for (const Json& m : w.get(j, "melds")) melds.push_back(riichienv_meld(m, w));
    // Most cases list 13 tiles and the winning tile apart; a few list all 14 already.
    if (closed.size() + 3 * melds.size() == 13) closed.push_back(win);
    c.hand = w.guard("tiles_136", [&] { return make_hand(closed, melds, "case " + std::to_string(i)); });
    const Json& cond = w.get(j, "conditions");
    if (w.integer(cond, "num_players") != 4 || w.boolean(cond, "is_sanma"))
      w.fail("conditions", "only 4-player cases are supported");
    if (w.integer(cond, "kita_count") != 0) w.fail("kita_count", "kita is a 3-player rule");
    WinContext& x = c.ctx;
    x.win_tile = win.type();
    x.tsumo = w.boolean(cond, "tsumo");
    x.riichi = w.boolean(cond, "riichi");
    x.double_riichi = w.boolean(cond, "double_riichi");
    x.ippatsu = w.boolean(cond, "ippatsu");
    x.haitei = w.boolean(cond, "haitei");
    x.houtei = w.boolean(cond, "houtei");
    x.rinshan = w.boolean(cond, "rinshan");
    x.chankan = w.boolean(cond, "chankan");
    x.seat_wind = wind_of(w.integer(cond, "player_wind"), w, "player_wind");
    x.round_wind = wind_of(w.integer(cond, "round_wind"), w, "round_wind");
    if (w.boolean(cond, "tsumo_first_turn")) (x.seat_wind == Wind::east ? x.tenhou : x.chiihou) = true;
    x.honba = w.integer(cond, "honba");
    for (const Json& v : w.get(j, "dora_indicators"))
      w.guard("dora_indicators", [&] { x.add_dora_indicator(pai_of_id(v, w, "dora_indicators").type()); return 0; });
    for (const Json& v : w.get(j, "ura_indicators"))
      w.guard("ura_indicators", [&] { x.add_ura_indicator(pai_of_id(v, w, "ura_indicators").type()); return 0; });
    const Json& e = w.get(j, "expected");
    if (!w.boolean(e, "is_win")) w.fail("expected.is_win", "the agari file holds wins only");
    c.han = w.integer(e, "han");
    c.fu = w.integer(e, "fu");
    for (const Json& v : w.get(e, "yaku")) c.yaku_ids.push_back(v.get<int>());
    std::sort(c.yaku_ids.begin(), c.yaku_ids.end());
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<RiichiEnvNegative> load_riichienv_negative(const std::filesystem::path& file) {
  const Json cases = cases_of(file);
  std::vector<RiichiEnvNegative> out;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Where w{file, static_cast<int>(i)};
    RiichiEnvNegative c;
    c.index = static_cast<int>(i);
    const Json& counts = w.get(cases[i], "counts_34");
    if (!counts.is_array() || counts.size() != 34) w.fail("counts_34", "expected 34 counts");
    int total = 0;
    for (std::size_t t = 0; t < 34; ++t) {
      const int v = counts[t].get<int>();
      if (v < 0 || v > 4) w.fail("counts_34", "count " + std::to_string(v) + " out of 0-4");
      c.counts[t] = static_cast<std::uint8_t>(v);
      total += v;
    }
    if (total % 3 != 1 || total > 13) w.fail("counts_34", std::to_string(total) + " tiles: expected a 3n+1 hand");
    c.tenpai = w.boolean(cases[i], "is_tenpai");
    out.push_back(c);
  }
  return out;
}

std::string diff_riichienv(const RiichiEnvCase& c, const WinResult& r) {
  if (!r.is_win()) return "expected a win, got " + std::string(r.status == WinStatus::no_yaku ? "no yaku" : "not complete");
  std::vector<int> ids;
  for (int i = 0; i < r.num_yaku; ++i) ids.push_back(yaku_info(r.yaku[ix(i)].yaku).mahjongsoul_id);
  std::sort(ids.begin(), ids.end());
  const int han = r.yakuman > 0 ? 13 * r.yakuman : r.han;
  std::string d;
  if (ids != c.yaku_ids) d += " yaku " + show(ids) + " vs " + show(c.yaku_ids);
  if (han != c.han) d += " han " + std::to_string(han) + " vs " + std::to_string(c.han);
  if (r.fu != c.fu) d += " fu " + std::to_string(r.fu) + " vs " + std::to_string(c.fu);
  return d.empty() ? d : d.substr(1);
}

std::string diff_riichienv(const RiichiEnvNegative& c) {
  const bool tenpai = shanten_best(c.counts) == 0;
  std::string d;
  if (tenpai != c.tenpai) d += std::string(" tenpai ") + (tenpai ? "true" : "false") + " vs " + (c.tenpai ? "true" : "false");
  // Never a win: the 13 tiles are not a winning hand, and a noten hand has no winning tile.
  if (is_agari(c.counts)) d += " called a win";
  if (!tenpai && !winning_tiles(c.counts).empty()) d += " noten but has a winning tile";
  return d.empty() ? d : d.substr(1);
}

namespace {
CheckReport check_riichienv_unguarded(const std::filesystem::path& file, const ScoringRules& rules, int max_listed) {
  CheckReport rep;
  rep.file = file.string();
  auto note = [&](int index, const std::string& d) {
    ++rep.checked;
    if (d.empty()) ++rep.agree;
    else if (static_cast<int>(rep.disagreements.size()) < max_listed)
      rep.disagreements.push_back("case " + std::to_string(index) + ": " + d + " (ours vs theirs)");
  };
  const Json cases = cases_of(file);
  if (!cases.empty() && cases[0].contains("counts_34")) {
    for (const auto& c : load_riichienv_negative(file)) note(c.index, diff_riichienv(c));
  } else {
    for (const auto& c : load_riichienv_agari(file)) note(c.index, diff_riichienv(c, score_win(c.hand, c.ctx, rules)));
  }
  return rep;
}
}  // namespace

CheckReport check_riichienv(const std::filesystem::path& file, const ScoringRules& rules, int max_listed) {
  return guard_json(file, [&] { return check_riichienv_unguarded(file, rules, max_listed); });
}

// ---- ara_p shanten ------------------------------------------------------------------------

std::vector<ShantenCase> load_shanten_cases(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw Error("cannot open '" + file.string() + "'");
  std::vector<ShantenCase> out;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::istringstream s(line);
    ShantenCase c;
    c.line = number;
    auto bad = [&](const std::string& what) {
      throw Error("'" + file.string() + "' line " + std::to_string(number) + ": " + what);
    };
    for (int k = 0; k < 14; ++k) {
      int t = -1;
      if (!(s >> t) || t < 0 || t >= kNumTileTypes) bad("tile " + std::to_string(k + 1) + " is not a tile type 0-33");
      if (++c.counts[ix(t)] > 4) bad("more than four copies of tile type " + std::to_string(t));
    }
    if (!(s >> c.normal >> c.kokushi >> c.chiitoi)) bad("expected 14 tiles then three shanten numbers");
    std::string extra;
    if (s >> extra) bad("unexpected '" + extra + "' after the three shanten numbers");
    out.push_back(c);
  }
  return out;
}

namespace {
CheckReport check_shanten_unguarded(const std::filesystem::path& file, int max_listed) {
  CheckReport rep;
  rep.file = file.string();
  for (const ShantenCase& c : load_shanten_cases(file)) {
    ++rep.checked;
    const Shanten s = shanten_all(c.counts);
    if (s.normal == c.normal && s.kokushi == c.kokushi && s.chiitoi == c.chiitoi) {
      ++rep.agree;
    } else if (static_cast<int>(rep.disagreements.size()) < max_listed) {
      rep.disagreements.push_back("line " + std::to_string(c.line) + " " + to_compact(c.counts) + ": normal/kokushi/chiitoi " +
                                  std::to_string(s.normal) + "/" + std::to_string(s.kokushi) + "/" + std::to_string(s.chiitoi) +
                                  " vs " + std::to_string(c.normal) + "/" + std::to_string(c.kokushi) + "/" +
                                  std::to_string(c.chiitoi) + " (ours vs theirs)");
    }
  }
  return rep;
}
}  // namespace

CheckReport check_shanten(const std::filesystem::path& file, int max_listed) {
  return guard_json(file, [&] { return check_shanten_unguarded(file, max_listed); });
}

}  // namespace hydra::game
