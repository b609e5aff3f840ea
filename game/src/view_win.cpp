// PlayerView: wins as scoring sees them, and whether a logged event is one of the legal moves.

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/game/view.hpp"

namespace hydra::game {
namespace {


// The chi action that an event with these consumed tiles is (called tile lowest/middle/highest).
Action chi_action(const Event& e) {
  const int t = e.pai.type().index();
  int below = 0;
  for (Pai p : e.consumed) below += p.type().index() < t ? 1 : 0;
  return Action(below == 0 ? Action::kChiLow : below == 1 ? Action::kChiMid : Action::kChiHigh);
}

bool same_tiles(const Consumed& a, const Consumed& b) {
  if (a.size() != b.size()) return false;
  TileCounts ca{}, cb{};
  int ra = 0, rb = 0;
  for (Pai p : a) { ++ca[ix(p.type().index())]; ra += p.is_red(); }
  for (Pai p : b) { ++cb[ix(p.type().index())]; rb += p.is_red(); }
  return ca == cb && ra == rb;
}

}  // namespace

WinSituation PlayerView::win_situation(Pai tile, bool tsumo, Seat from, const DoraMarkers& ura) const {
  WinSituation w;
  w.hand = hand_;
  if (!tsumo) w.hand.add(tile);
  WinContext& c = w.ctx;
  c.win_tile = tile.type();
  c.tsumo = tsumo;
  c.ron_from = tsumo ? From::self : static_cast<From>(me_.distance_to(from));
  c.round_wind = static_cast<Wind>(bakaze_.index() - 27);
  c.seat_wind = static_cast<Wind>(oya_.distance_to(me_));
  c.riichi = riichi_accepted_[ix(me_)];
  c.double_riichi = c.riichi && double_riichi_;
  c.ippatsu = c.riichi && ippatsu_[ix(me_)];
  c.rinshan = tsumo && rinshan_draw_;
  c.haitei = tsumo && !rinshan_draw_ && live_left_ == 0;
  c.houtei = !tsumo && live_left_ == 0 && last_type_ == EventType::dahai;
  c.chankan = !tsumo && (last_type_ == EventType::kakan || last_type_ == EventType::ankan);
  c.tenhou = tsumo && me_ == oya_ && first_turn(me_);
  c.chiihou = tsumo && me_ != oya_ && first_turn(me_);
  for (Pai d : dora_markers_) c.add_dora_indicator(d.type());
  for (Pai u : ura) c.add_ura_indicator(u.type());
  return w;
}

WinResult PlayerView::evaluate_win(Pai tile, bool tsumo, Seat from, const DoraMarkers& ura) const {
  const WinSituation w = win_situation(tile, tsumo, from, ura);
  return score_win(w.hand, w.ctx, rules_->scoring);
}

bool PlayerView::is_legal(const Event& e, std::string* why) const {
  const Legal l = legal();
  auto fail = [&](std::string text) {
    if (why) *why = std::move(text) + " (phase " + std::string(to_string(l.phase)) + ", legal: " + to_string(l.mask) + ")";
    return false;
  };
  auto holds = [&](const Consumed& tiles) {
    TileCounts need{};
    std::uint8_t red = 0;
    for (Pai p : tiles) {
      ++need[ix(p.type().index())];
      if (p.is_red()) red |= red_bit(p.type());
    }
    for (int t = 0; t < kNumTileTypes; ++t) {
      if (need[ix(t)] > hand_.closed[ix(t)]) return false;
      // Plain copies asked for must exist besides a held red five.
      const TileType tt(t);
      if (tt.is_five()) {
        const bool held_red = (hand_.closed_red & red_bit(tt)) != 0;
        const int plain_need = need[ix(t)] - ((red & red_bit(tt)) ? 1 : 0);
        if ((red & red_bit(tt)) && !held_red) return false;
        if (plain_need > hand_.closed[ix(t)] - (held_red ? 1 : 0)) return false;
      }
    }
    return true;
  };
  switch (e.type) {
    case EventType::dahai: {
      const Action a = Action::discard(e.pai);
      if (!l.has(a)) return fail("discard " + std::string(mjai_name(e.pai)) + " is not legal");
      return true;
    }
    case EventType::reach:
      return l.has(Action(Action::kRiichi)) ? true : fail("riichi is not legal");
    case EventType::chi: {
      const Action a = chi_action(e);
      if (!l.has(a) || l.move(a).target != e.target) return fail(to_string(a) + " is not legal");
      if (!holds(e.consumed)) return fail("chi consumes tiles the seat does not hold");
      return true;
    }
    case EventType::pon:
      if (!l.has(Action(Action::kPon)) || l.move(Action(Action::kPon)).target != e.target) return fail("pon is not legal");
      if (!holds(e.consumed)) return fail("pon consumes tiles the seat does not hold");
      return true;
    case EventType::daiminkan:
    case EventType::kakan:
    case EventType::ankan: {
      if (!l.has(Action(Action::kKan))) return fail(std::string(to_string(e.type)) + " is not legal");
      for (const Move& k : l.kans) {
        if (k.type != e.type) continue;
        if (e.type == EventType::ankan ? same_tiles(k.consumed, e.consumed)
                                       : (k.pai == e.pai && same_tiles(k.consumed, e.consumed)))
          return true;
      }
      return fail(std::string(to_string(e.type)) + " of these tiles is not legal");
    }
    case EventType::hora:
      if (!l.has(Action(Action::kAgari))) return fail("agari is not legal");
      if (l.move(Action(Action::kAgari)).target != e.target) return fail("agari from the wrong seat");
      return true;
    case EventType::ryukyoku:
      return l.has(Action(Action::kRyukyoku)) ? true : fail("kyuushu kyuuhai is not legal");
    case EventType::none:
      return l.has(Action(Action::kPass)) ? true : fail("pass is not legal");
    default:
      return fail(std::string(to_string(e.type)) + " is not a decision");
  }
}

}  // namespace hydra::game
