// PlayerView: the legal actions of a seat (the rules of docs/RULES.md that limit a decision:
// kuikae, riichi preconditions, furiten, kan limits, houtei and the abortive-draw windows).

#include <algorithm>
#include <bit>
#include <string>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/game/agari.hpp"
#include "hydra/game/view.hpp"

namespace hydra::game {
namespace {


bool holds_red(const Hand& h, TileType t) { return t.is_five() && (h.closed_red & red_bit(t)) != 0; }

// `n` tiles of type t from the hand, the red five first when held (never lose a red five: it
// moves into the meld).
void take(const Hand& h, TileType t, int n, Consumed& out) {
  for (int i = 0; i < n; ++i) out.push_back(Pai(t, i == 0 && holds_red(h, t)));
}

int yaochu_kinds(const TileCounts& c) {
  int n = 0;
  for (int t = 0; t < kNumTileTypes; ++t) n += (c[ix(t)] > 0 && TileType(t).is_yaochu()) ? 1 : 0;
  return n;
}

}  // namespace

std::string_view to_string(Phase p) {
  switch (p) {
    case Phase::idle: return "idle";
    case Phase::turn: return "turn";
    case Phase::riichi_discard: return "riichi_discard";
    case Phase::kan_select: return "kan_select";
    case Phase::response: return "response";
    case Phase::chankan: return "chankan";
  }
  return "?";
}

Event Move::to_event(Seat actor) const {
  Event e;
  e.type = type;
  e.actor = actor;
  e.target = target;
  e.pai = pai;
  e.tsumogiri = tsumogiri;
  e.consumed = consumed;
  return e;
}

ActionMask Legal::kan_select_mask() const {
  ActionMask m;
  for (const Move& k : kans) m.set(Action::kan_select(k.type == EventType::ankan ? k.consumed[0].type() : k.pai.type()));
  return m;
}

const Move& Legal::kan_move(Action type) const {
  for (const Move& k : kans) {
    const TileType t = k.type == EventType::ankan ? k.consumed[0].type() : k.pai.type();
    if (t.index() == type.index()) return k;
  }
  throw InvariantError("kan_move: no kan candidate of tile type " + std::to_string(type.index()));
}

void Legal::clear() {
  mask = ActionMask();
  kans.clear();
  phase = Phase::idle;
}

Legal PlayerView::legal() const {
  Legal out;
  legal(out);
  return out;
}

void PlayerView::legal(Legal& out) const {
  out.clear();
  switch (phase_) {
    case Phase::turn: turn_actions(out); break;
    case Phase::riichi_discard: riichi_discards(out); break;
    case Phase::response: response_actions(out); break;
    case Phase::chankan: chankan_actions(out); break;
    case Phase::idle:
    case Phase::kan_select: break;
  }
}

void PlayerView::add_discards(Legal& out, TileMask forbidden) const {
  for (int t = 0; t < kNumTileTypes; ++t) {
    const int n = hand_.closed[ix(t)];
    if (n == 0 || forbidden.contains(TileType(t))) continue;
    const bool red = holds_red(hand_, TileType(t));
    if (n > (red ? 1 : 0)) {
      const Pai p{TileType(t)};
      const Action a = Action::discard(p);
      out.mask.set(a);
      out.moves[ix(a.index())] = {EventType::dahai, p, Seat::none(), drawn_ == p, {}};
    }
    if (red) {
      const Pai p(TileType(t), true);
      const Action a = Action::discard(p);
      out.mask.set(a);
      out.moves[ix(a.index())] = {EventType::dahai, p, Seat::none(), drawn_ == p, {}};
    }
  }
}

void PlayerView::add_kans(Legal& out) const {
  if (live_left_ <= 0 || kans_total_ >= 4) return;
  const bool in_riichi = riichi_declared_[ix(me_)];
  // Candidates: types held four times, and (not in riichi) the pons.
  std::uint64_t types = 0;
  if (in_riichi) {
    if (hand_.closed[ix(drawn_.type().index())] == 4) types |= std::uint64_t{1} << drawn_.type().index();
  } else {
    for (int t = 0; t < kNumTileTypes; ++t)
      if (hand_.closed[ix(t)] == 4) types |= std::uint64_t{1} << t;
    for (int i = 0; i < hand_.num_melds; ++i)
      if (hand_.melds[ix(i)].kind() == MeldKind::pon) types |= std::uint64_t{1} << hand_.melds[ix(i)].first().index();
  }
  for (; types != 0; types &= types - 1) {
    const int t = std::countr_zero(types);
    const TileType tt(t);
    if (hand_.closed[ix(t)] == 4) {
      if (in_riichi) {
        // After riichi only the drawn tile, and only when the waits stay the same.
        if (drawn_.type() != tt) continue;
        TileCounts after = hand_.closed;
        after[ix(t)] = 0;
        if (winning_tiles(after) != waits_) continue;
      }
      Move m{EventType::ankan, Pai::unknown(), Seat::none(), false, {}};
      take(hand_, tt, 4, m.consumed);
      out.kans.push_back(m);
    } else if (hand_.closed[ix(t)] >= 1 && !in_riichi) {
      for (int i = 0; i < hand_.num_melds; ++i) {
        const Meld& pon = hand_.melds[ix(i)];
        if (pon.kind() != MeldKind::pon || pon.first() != tt) continue;
        Move m{EventType::kakan, Pai(tt, holds_red(hand_, tt)), Seat::none(), false, {}};
        for (int k = 0; k < 3; ++k) m.consumed.push_back(pon.tile(k));
        out.kans.push_back(m);
      }
    }
  }
  if (!out.kans.empty()) {
    out.mask.set(Action(Action::kKan));
    out.moves[Action::kKan] = out.kans[0];
  }
}

void PlayerView::turn_actions(Legal& out) const {
  out.phase = Phase::turn;
  const bool after_call = drawn_.is_unknown();
  if (riichi_declared_[ix(me_)]) {
    const Action a = Action::discard(drawn_);
    out.mask.set(a);
    out.moves[ix(a.index())] = {EventType::dahai, drawn_, Seat::none(), true, {}};
  } else {
    add_discards(out, kuikae_);
  }
  if (after_call) return;
  if (can_win_on(drawn_, true, me_)) {
    out.mask.set(Action(Action::kAgari));
    out.moves[Action::kAgari] = {EventType::hora, drawn_, me_, false, {}};
  }
  add_kans(out);
  if (riichi_declared_[ix(me_)]) return;
  // One draw lowers shanten by at most one: a hand two or more from tenpai before the draw
  // can not riichi now, and one already tenpai always can.
  if (hand_.is_menzen() && scores_[ix(me_)] >= 1000 && live_left_ >= 4 && shanten_ <= 1 &&
      (shanten_ == 0 || shanten_best(hand_.closed) <= 0)) {
    out.mask.set(Action(Action::kRiichi));
    out.moves[Action::kRiichi] = {EventType::reach, Pai::unknown(), Seat::none(), false, {}};
  }
  if (first_turn(me_) && yaochu_kinds(hand_.closed) >= 9) {
    out.mask.set(Action(Action::kRyukyoku));
    out.moves[Action::kRyukyoku] = {EventType::ryukyoku, Pai::unknown(), Seat::none(), false, {}};
  }
}

void PlayerView::riichi_discards(Legal& out) const {
  out.phase = Phase::riichi_discard;
  TileMask keep_tenpai;
  TileCounts c = hand_.closed;
  for (int t = 0; t < kNumTileTypes; ++t) {
    if (c[ix(t)] == 0) continue;
    --c[ix(t)];
    if (shanten_best(c) == 0) keep_tenpai.insert(TileType(t));
    ++c[ix(t)];
  }
  add_discards(out, TileMask(~keep_tenpai.bits() & ((std::uint64_t{1} << kNumTileTypes) - 1)));
  HYDRA_CHECK(!out.mask.empty(), "riichi declared without a tenpai discard");
}

bool PlayerView::can_call_keep_discard(TileCounts after, TileMask forbidden) const {
  for (int t = 0; t < kNumTileTypes; ++t)
    if (after[ix(t)] > 0 && !forbidden.contains(TileType(t))) return true;
  return false;
}

void PlayerView::response_actions(Legal& out) const {
  out.phase = Phase::response;
  out.mask.set(Action(Action::kPass));
  const Seat from = last_actor_;
  const Pai p = last_pai_;
  if (can_win_on(p, false, from)) {
    out.mask.set(Action(Action::kAgari));
    out.moves[Action::kAgari] = {EventType::hora, p, from, false, {}};
  }
  // No calls in riichi, on the last discard (houtei), or where the discard closes the kyoku
  // unless someone wins on it (suufon renda, suukaikan, the fourth riichi).
  if (riichi_declared_[ix(me_)] || live_left_ <= 0 || suufon_renda() || suukaikan()) return;
  if (riichi_declared_[ix(from)] && !riichi_accepted_[ix(from)] && riichi_count() == 3) return;
  const TileType t = p.type();
  const int ti = t.index();
  const int n = hand_.closed[ix(ti)];
  if (n >= 2) {
    TileCounts after = hand_.closed;
    after[ix(ti)] = static_cast<std::uint8_t>(n - 2);
    TileMask forbidden;
    forbidden.insert(t);
    if (can_call_keep_discard(after, forbidden)) {
      Move m{EventType::pon, p, from, false, {}};
      take(hand_, t, 2, m.consumed);
      out.mask.set(Action(Action::kPon));
      out.moves[Action::kPon] = m;
    }
  }
  if (n == 3 && kans_total_ < 4) {
    Move m{EventType::daiminkan, p, from, false, {}};
    take(hand_, t, 3, m.consumed);
    out.mask.set(Action(Action::kKan));
    out.moves[Action::kKan] = m;
    out.kans.push_back(m);
  }
  if (from.next(1) != me_ || t.is_honor()) return;
  const int num = ti % 9;  // 0-8
  struct ChiShape {
    int action, a, b, swap;  // own tiles a, b as offsets from the called tile; suji-swap offset
  };
  static constexpr ChiShape kShapes[] = {
      {Action::kChiLow, 1, 2, 3}, {Action::kChiMid, -1, 1, 0}, {Action::kChiHigh, -2, -1, -3}};
  for (const ChiShape& s : kShapes) {
    const int na = num + s.a, nb = num + s.b;
    if (na < 0 || nb > 8 || na > 8 || nb < 0) continue;
    const int ta = ti + s.a, tb = ti + s.b;
    if (hand_.closed[ix(ta)] == 0 || hand_.closed[ix(tb)] == 0) continue;
    TileCounts after = hand_.closed;
    --after[ix(ta)];
    --after[ix(tb)];
    TileMask forbidden;
    forbidden.insert(t);
    if (s.swap != 0 && num + s.swap >= 0 && num + s.swap <= 8) forbidden.insert(TileType(ti + s.swap));
    if (!can_call_keep_discard(after, forbidden)) continue;
    Move m{EventType::chi, p, from, false, {}};
    take(hand_, TileType(ta), 1, m.consumed);
    take(hand_, TileType(tb), 1, m.consumed);
    out.mask.set(Action(s.action));
    out.moves[ix(s.action)] = m;
  }
}

void PlayerView::chankan_actions(Legal& out) const {
  out.phase = Phase::chankan;
  out.mask.set(Action(Action::kPass));
  // An ankan event hides its tile ("?"): the robbed tile is the kan's, the actor's last meld.
  const Melds& melds = melds_[ix(last_actor_)];
  const Pai p = last_pai_.is_unknown() ? Pai(melds[melds.size() - 1].first()) : last_pai_;
  if (can_win_on(p, false, last_actor_)) {
    out.mask.set(Action(Action::kAgari));
    out.moves[Action::kAgari] = {EventType::hora, p, last_actor_, false, {}};
  }
}

bool PlayerView::can_win_on(Pai p, bool tsumo, Seat from) const {
  if (!waits_.contains(p.type())) return false;
  if (!tsumo && furiten()) return false;
  return evaluate_win(p, tsumo, from, {}).is_win();
}

namespace {

bool same_types(const Consumed& a, const Consumed& b) {
  if (a.size() != b.size()) return false;
  // Multisets of tile types: sorted, the unused slots past any tile type.
  std::array<int, 4> ta{99, 99, 99, 99}, tb{99, 99, 99, 99};
  for (int k = 0; k < a.size(); ++k) {
    ta[ix(k)] = a[k].type().index();
    tb[ix(k)] = b[k].type().index();
  }
  std::sort(ta.begin(), ta.end());
  std::sort(tb.begin(), tb.end());
  return ta == tb;
}

}  // namespace

TileType kan_type(const Event& e) { return e.type == EventType::ankan ? e.consumed[0].type() : e.pai.type(); }

int action_of(const Event& e, const Legal& legal, std::string& why) {
  auto need = [&](int a) {
    if (!legal.has(Action(a))) {
      why = to_string(Action(a)) + " is not legal (phase " + std::string(to_string(legal.phase)) +
            ", legal: " + to_string(legal.mask) + ")";
      return -1;
    }
    return a;
  };
  switch (e.type) {
    case EventType::dahai: return need(Action::discard(e.pai).index());
    case EventType::reach: return need(Action::kRiichi);
    case EventType::chi:
      for (int a = Action::kChiLow; a <= Action::kChiHigh; ++a)
        if (legal.has(Action(a)) && legal.move(Action(a)).target == e.target &&
            same_types(legal.move(Action(a)).consumed, e.consumed))
          return a;
      why = "this chi is not legal (legal: " + to_string(legal.mask) + ")";
      return -1;
    case EventType::pon:
      if (legal.has(Action(Action::kPon)) && legal.move(Action(Action::kPon)).target != e.target) {
        why = "pon from the wrong seat";
        return -1;
      }
      return need(Action::kPon);
    case EventType::daiminkan:
    case EventType::kakan:
    case EventType::ankan:
      for (const game::Move& k : legal.kans)
        if (k.type == e.type && (k.type == EventType::ankan ? k.consumed[0].type() : k.pai.type()) == kan_type(e))
          return need(Action::kKan);
      why = std::string(to_string(e.type)) + " of " + std::string(mjai_name(Pai(kan_type(e)))) + " is not legal";
      return -1;
    case EventType::hora:
      if (legal.has(Action(Action::kAgari)) && legal.move(Action(Action::kAgari)).target != e.target) {
        why = "agari from the wrong seat";
        return -1;
      }
      return need(Action::kAgari);
    case EventType::ryukyoku: return need(Action::kRyukyoku);
    default: why = std::string(to_string(e.type)) + " is not a decision"; return -1;
  }
}

}  // namespace hydra::game
