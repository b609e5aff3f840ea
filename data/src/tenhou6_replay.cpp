// Turning a tenhou.net/6 kyoku (per-player lists of takes and discards) back into one ordered
// event stream. The lists do not say when a call happened: a pon string in a player's takes may
// answer this discard or a later one of the same tile. So the replay tracks every hand, follows
// the turn order, and at each discard that a pending call could answer tries "call now" and
// "pass" in turn (depth-first, undoing on failure). A wrong guess always fails later: a tile leaves
// a hand it is not in, a discard list runs out, or lists are left over at the end.

#include <algorithm>
#include <charconv>

#include "hydra/common/text.hpp"
#include "tenhou6_kyoku.hpp"
#include "tenhou_yaku.hpp"
#include "hydra/common/index.hpp"

namespace hydra::data::tenhou6 {
namespace {

using game::Event;
using game::EventType;
using game::Pai;
using game::Seat;

struct Call {
  char kind = 0;
  std::vector<Pai> tiles;
  std::size_t pos = 0;  // index in `tiles` of the tile after the letter (the called/added one)
};

Call parse_call(const std::string& s) {
  Call c;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] >= '0' && s[i] <= '9' && i + 1 < s.size()) {
      const int code = (s[i] - '0') * 10 + (s[i + 1] - '0');
      if (code != 60) c.tiles.push_back(tile_from_code(code));  // "r60": riichi on the drawn tile
      i += 2;
    } else {
      c.kind = s[i];
      c.pos = c.tiles.size();
      ++i;
    }
  }
  if (!c.kind) throw Error("call '" + text::excerpt(s) + "' has no letter");
  return c;
}

// Relative seat of the discarder from the letter's place: "p3434..." from kamicha, "34p34.."
// toimen, "3434p34" / "343434m34" shimocha.
int from_offset(const Call& c) {
  if (c.pos == 0) return 3;
  if (c.pos == 1) return 2;
  return 1;
}

struct State {
  std::array<std::size_t, game::kNumSeats> ti{}, di{};
  std::array<std::vector<Pai>, game::kNumSeats> hand;
  std::array<bool, game::kNumSeats> reached{};
  std::vector<Event> ev;
  std::vector<std::uint8_t> given;
  std::size_t dora_shown = 1;
  bool open_kan_dora_pending = false;
};

class Replayer {
 public:
  explicit Replayer(const Kyoku& k) : k_(k) {}

  bool run(State& s) {
    Event e;
    e.type = EventType::start_kyoku;
    e.bakaze = game::TileType(27 + k_.round / 4);
    e.kyoku = static_cast<std::uint8_t>(k_.round % 4 + 1);
    e.honba = static_cast<std::uint8_t>(k_.honba);
    e.kyotaku = static_cast<std::uint8_t>(k_.kyotaku);
    e.oya = Seat(k_.round % 4);
    e.dora_marker = k_.dora.at(0);
    e.scores = k_.scores;
    for (std::size_t p = 0; p < s.hand.size(); ++p) {
      s.hand[p] = k_.haipai[p];
      for (Pai t : k_.haipai[p]) e.tehais[p].push_back(t);
    }
    emit(s, e);
    return draw(s, k_.round % 4);
  }

 private:
  static void emit(State& s, const Event& e, std::uint8_t given = kGivenAll) {
    s.ev.push_back(e);
    s.given.push_back(given);
  }
  bool exhausted(const State& s) const {
    for (std::size_t p = 0; p < s.ti.size(); ++p)
      if (s.ti[p] < k_.takes[p].size() || s.di[p] < k_.discards[p].size()) return false;
    return true;
  }
  static bool remove(std::vector<Pai>& hand, Pai t) {
    const auto it = std::find(hand.begin(), hand.end(), t);
    if (it == hand.end()) return false;
    hand.erase(it);
    return true;
  }
  void reveal_dora(State& s) {
    if (s.dora_shown >= k_.dora.size()) return;
    Event d;
    d.type = EventType::dora;
    d.dora_marker = k_.dora[s.dora_shown++];
    emit(s, d);
  }

  // `seat` draws (a live or rinshan tile) and then acts.
  bool draw(State& s, int seat) {
    const auto p = ix(seat);
    if (s.ti[p] >= k_.takes[p].size() || !k_.takes[p][s.ti[p]].call.empty()) return false;
    const Pai t = tile_from_code(k_.takes[p][s.ti[p]++].code);
    s.hand[p].push_back(t);
    Event e;
    e.type = EventType::tsumo;
    e.actor = Seat(seat);
    e.pai = t;
    emit(s, e);
    if (s.open_kan_dora_pending) {  // Tenhou: an open kan's dora after the rinshan tsumo
      s.open_kan_dora_pending = false;
      reveal_dora(s);
    }
    return act(s, seat, t);
  }

  // `seat` holds 14 tiles (drawn: the tile just drawn, or unknown after a call).
  bool act(State& s, int seat, Pai drawn) {
    const auto p = ix(seat);
    if (exhausted(s)) return finish(s, seat, drawn, /*after_draw=*/true);
    if (s.di[p] >= k_.discards[p].size()) return false;
    const Item& item = k_.discards[p][s.di[p]++];
    Event e;
    e.actor = Seat(seat);
    if (item.call.empty()) {
      if (item.code == 0) return false;
      e.tsumogiri = item.code == 60;
      if (e.tsumogiri && drawn.is_unknown()) return false;
      return discard(s, seat, e.tsumogiri ? drawn : tile_from_code(item.code), e.tsumogiri, false);
    }
    const Call c = parse_call(item.call);
    if (c.kind == 'r') {
      const bool tsumogiri = c.tiles.empty();
      if (tsumogiri && drawn.is_unknown()) return false;
      e.type = EventType::reach;
      emit(s, e);
      return discard(s, seat, tsumogiri ? drawn : c.tiles.at(0), tsumogiri, true);
    }
    if (c.kind == 'a' && c.tiles.size() == 4) {
      e.type = EventType::ankan;
      for (Pai t : c.tiles)
        if (!remove(s.hand[p], t)) return false;
      for (Pai t : c.tiles) e.consumed.push_back(t);
      emit(s, e);
      reveal_dora(s);  // Tenhou: an ankan's dora before the rinshan tsumo
      return draw(s, seat);
    }
    if (c.kind == 'k' && c.tiles.size() == 4 && c.pos < 4) {
      e.type = EventType::kakan;
      e.pai = c.tiles[c.pos];
      if (!remove(s.hand[p], e.pai)) return false;
      for (std::size_t i = 0; i < 4; ++i)
        if (i != c.pos) e.consumed.push_back(c.tiles[i]);
      emit(s, e);
      if (exhausted(s)) return finish(s, seat, e.pai, /*after_draw=*/false);  // chankan
      s.open_kan_dora_pending = true;
      return draw(s, seat);
    }
    return false;
  }

  bool discard(State& s, int seat, Pai t, bool tsumogiri, bool riichi) {
    const auto p = ix(seat);
    if (!remove(s.hand[p], t)) return false;
    Event e;
    e.type = EventType::dahai;
    e.actor = Seat(seat);
    e.pai = t;
    e.tsumogiri = tsumogiri;
    emit(s, e);
    if (riichi) s.reached[p] = true;
    if (exhausted(s)) {
      if (riichi && k_.result != "和了") accept_riichi(s, seat);
      return finish(s, seat, t, /*after_draw=*/false);
    }
    if (riichi) accept_riichi(s, seat);
    // Pon and kan outrank chi; each candidate is a guess the rest of the log confirms.
    for (int o = 1; o < game::kNumSeats; ++o) {
      const auto q = static_cast<std::size_t>((seat + o) % game::kNumSeats);
      if (s.ti[q] >= k_.takes[q].size() || k_.takes[q][s.ti[q]].call.empty()) continue;
      const Call c = parse_call(k_.takes[q][s.ti[q]].call);
      const std::size_t tiles = c.kind == 'm' ? 4 : 3;
      const bool fits = c.tiles.size() == tiles &&
                        ((c.kind == 'p' || c.kind == 'm') ? from_offset(c) == (game::kNumSeats - o) % game::kNumSeats
                                                          : c.kind == 'c' && o == 1);
      if (!fits || c.pos >= c.tiles.size() || c.tiles[c.pos] != t) continue;
      State tried = s;
      if (call(tried, static_cast<int>(q), seat, c)) {
        s = std::move(tried);
        return true;
      }
      if (++branches_ > kMaxBranches) return false;
    }
    return draw(s, (seat + 1) % game::kNumSeats);
  }

  static void accept_riichi(State& s, int seat) {
    Event e;
    e.type = EventType::reach_accepted;
    e.actor = Seat(seat);
    e.deltas[ix(seat)] = -1000;
    emit(s, e, kGivenDeltas | kGivenKyotaku);
  }

  bool call(State& s, int seat, int from, const Call& c) {
    const auto p = ix(seat);
    ++s.ti[p];
    Event e;
    e.type = c.kind == 'c' ? EventType::chi : c.kind == 'p' ? EventType::pon : EventType::daiminkan;
    e.actor = Seat(seat);
    e.target = Seat(from);
    e.pai = c.tiles[c.pos];
    for (std::size_t i = 0; i < c.tiles.size(); ++i) {
      if (i == c.pos) continue;
      if (!remove(s.hand[p], c.tiles[i])) return false;
      e.consumed.push_back(c.tiles[i]);
    }
    emit(s, e);
    if (e.type != EventType::daiminkan) return act(s, seat, Pai::unknown());
    // A daiminkan skips a discard: its slot holds 0; then comes the rinshan tsumo.
    if (s.di[p] >= k_.discards[p].size() || !k_.discards[p][s.di[p]].call.empty() || k_.discards[p][s.di[p]].code != 0)
      return false;
    ++s.di[p];
    s.open_kan_dora_pending = true;
    return draw(s, seat);
  }

  bool finish(State& s, int seat, Pai last, bool after_draw);
  bool finish_draw(State& s, int seat, bool after_draw);

  static constexpr int kMaxBranches = 10000;  // real logs need a handful
  const Kyoku& k_;
  int branches_ = 0;
};

std::vector<Pai> sorted(std::vector<Pai> v) {
  std::stable_sort(v.begin(), v.end(), [](Pai a, Pai b) { return tenhou_order(a) < tenhou_order(b); });
  return v;
}

// A run of decimal digits from a points or yaku text; no hand is worth 10 million points.
int bounded_number(std::string_view digits, const std::string& text) {
  int v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || end != digits.data() + digits.size() || v > 10'000'000)
    throw Error("'" + text::excerpt(text) + "': number '" + text::excerpt(digits, 20) + "' out of range");
  return v;
}

// "30符4飜7700点", "満貫2000-4000点", "700点∀" -> fu (0 when not written) and the hand's value.
void parse_points(const std::string& text, Event& e) {
  auto number_before = [&](const char* unit) -> int {
    const auto at = text.find(unit);
    if (at == std::string::npos) return 0;
    std::size_t b = at;
    while (b > 0 && text[b - 1] >= '0' && text[b - 1] <= '9') --b;
    return b == at ? 0 : bounded_number(std::string_view(text).substr(b, at - b), text);
  };
  e.fu = static_cast<std::uint8_t>(std::min(number_before("符"), 255));
  const auto ten = text.find("点");
  if (ten == std::string::npos) throw Error("points '" + text::excerpt(text) + "' have no 点");
  std::size_t b = ten;
  while (b > 0 && ((text[b - 1] >= '0' && text[b - 1] <= '9') || text[b - 1] == '-')) --b;
  const std::string pts = text.substr(b, ten - b);
  const auto dash = pts.find('-');
  if (pts.empty() || dash == 0) throw Error("points '" + text::excerpt(text) + "' have no number");
  const std::string_view digits(pts);
  if (dash != std::string::npos) {  // non-dealer tsumo: children pay the first, the dealer the second
    e.hora_points = 2 * bounded_number(digits.substr(0, dash), text) + bounded_number(digits.substr(dash + 1), text);
  } else {
    const bool all = text.find("∀", ten) != std::string::npos;  // dealer tsumo: each pays this
    e.hora_points = bounded_number(digits, text) * (all ? 3 : 1);
  }
}

void parse_yakus(const std::vector<std::string>& yakus, Event& e) {
  int fan = 0;
  bool yakuman = false;
  for (const std::string& y : yakus) {
    const auto open = y.find('(');
    if (open == std::string::npos) throw Error("yaku '" + text::excerpt(y) + "' has no (han)");
    const auto kind = tenhou::yaku_from_name(y.substr(0, open));
    if (!kind) throw Error("unknown yaku '" + text::excerpt(y) + "'");
    int han = 0;
    if (y.find("役満", open) != std::string::npos) {
      han = game::kYakumanHan;
      yakuman = true;
    } else {
      std::size_t i = open + 1;
      while (i < y.size() && y[i] >= '0' && y[i] <= '9') ++i;
      if (i > open + 1) han = std::min(bounded_number(std::string_view(y).substr(open + 1, i - open - 1), y), 255);
    }
    if (han == 0) continue;  // "裏ドラ(0飜)"
    if (e.yakus.full()) throw Error("too many yaku");
    e.yakus.push_back({*kind, static_cast<std::uint8_t>(han)});
    fan += han;
  }
  e.fan = static_cast<std::uint8_t>(yakuman ? game::kYakumanHan : std::min(fan, 255));
}

bool Replayer::finish(State& s, int seat, Pai last, bool after_draw) {
  if (k_.result != "和了") return finish_draw(s, seat, after_draw);
  if (after_draw && k_.wins.size() != 1) return false;
  for (const Win& w : k_.wins) {
    const auto best = std::max_element(w.deltas.begin(), w.deltas.end());
    if (*best <= 0) throw Error("a win without a winner (no positive delta)");
    const int winner = static_cast<int>(best - w.deltas.begin());
    if (after_draw != (winner == seat)) return false;  // tsumo by the drawer, ron on the discard
    Event e;
    e.type = EventType::hora;
    e.actor = Seat(winner);
    e.target = Seat(seat);
    e.pai = last;
    e.deltas = w.deltas;
    std::vector<Pai> hand = s.hand[ix(winner)];
    if (after_draw && !remove(hand, last)) return false;
    for (Pai t : sorted(hand)) e.hora_tehais.push_back(t);
    if (s.reached[ix(winner)])
      for (Pai t : k_.ura) e.ura_markers.push_back(t);
    const auto& wfp = w.who_from_pao;
    if (wfp.size() >= 3 && wfp[0] == winner && wfp[2] != wfp[0] && wfp[2] >= 0 && wfp[2] < game::kNumSeats)
      e.pao = Seat(wfp[2]);
    if (!w.points.empty()) {
      parse_points(w.points, e);
      parse_yakus(w.yakus, e);
      e.detailed = true;
    }
    emit(s, e, kGivenDeltas | kGivenKyotaku);
  }
  Event end;
  end.type = EventType::end_kyoku;
  emit(s, end);
  return true;
}

bool Replayer::finish_draw(State& s, int seat, bool after_draw) {
  using R = game::RyukyokuReason;
  const std::string& r = k_.result;
  Event e;
  e.type = EventType::ryukyoku;
  e.reason = r == "九種九牌" ? R::kyushukyuhai : r == "四家立直" ? R::suchareach : r == "三家和了" ? R::sanchaho
           : r == "四風連打" ? R::sufonrenta : r == "四槓散了" ? R::sukaikan : r == "流し満貫" ? R::nagashimangan
           : (r == "流局" || r == "全員聴牌" || r == "全員不聴") ? R::fanpai : R::unknown;
  if (e.reason == R::unknown) throw Error("unknown result '" + text::excerpt(r) + "'");
  if (after_draw != (e.reason == R::kyushukyuhai)) return false;
  e.deltas = k_.draw_deltas;
  for (int p = 0; p < game::kNumSeats; ++p) {
    bool& tenpai = e.tenpais[ix(p)];
    switch (e.reason) {
      case R::fanpai: tenpai = r == "全員聴牌" || e.deltas[ix(p)] > 0; break;
      case R::kyushukyuhai: tenpai = p == seat; break;  // the declarer shows the hand
      case R::suchareach: tenpai = true; break;
      case R::sanchaho: tenpai = p != seat; break;  // the three who would ron
      default: break;
    }
    const auto& hand = s.hand[ix(p)];
    auto& shown = e.tehais[ix(p)];
    if (tenpai) {
      for (Pai t : sorted(hand)) shown.push_back(t);
    } else {
      for (std::size_t i = 0; i < hand.size() && !shown.full(); ++i) shown.push_back(Pai::unknown());
    }
  }
  // Who was tenpai at a nagashi mangan is not in the log.
  e.detailed = e.reason != R::nagashimangan;
  if (!e.detailed) e.tehais = {};
  emit(s, e, kGivenDeltas | kGivenKyotaku);
  Event end;
  end.type = EventType::end_kyoku;
  emit(s, end);
  return true;
}

}  // namespace

Pai tile_from_code(int code) {
  const int suit = code / 10, n = code % 10;
  if (suit >= 1 && suit <= 3 && n >= 1 && n <= 9) return Pai(game::TileType((suit - 1) * 9 + n - 1));
  if (suit == 4 && n >= 1 && n <= 7) return Pai(game::TileType(26 + n));
  if (suit == 5 && n >= 1 && n <= 3) return Pai(game::TileType((n - 1) * 9 + 4), /*red=*/true);
  throw Error("unknown tenhou.net/6 tile code " + std::to_string(code));
}

void replay_kyoku(const Kyoku& k, std::vector<Event>& out, std::vector<std::uint8_t>& given) {
  State s;
  if (!Replayer(k).run(s))
    throw Error("no order of the calls fits the takes and discards of this kyoku");
  out.insert(out.end(), s.ev.begin(), s.ev.end());
  given.insert(given.end(), s.given.begin(), s.given.end());
}

}  // namespace hydra::data::tenhou6
