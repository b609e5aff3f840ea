#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

#include "hydra/common/index.hpp"
#include "hydra/game/shanten.hpp"
#include "hydra/game/view_check.hpp"
#include "hydra/selfplay/bots.hpp"

namespace hydra::selfplay {
namespace {

using game::Action;
using game::PlayerView;
using game::Seat;
using game::TileCounts;
using game::TileType;


// Every tile this seat can see: its closed hand, all melds, every river tile not taken by a call
// (a called tile is counted in the caller's meld), the dora indicators. Capped at 4 per kind.
TileCounts visible_capped(const PlayerView& view) {
  TileCounts v = game::visible_tiles(view);
  for (auto& c : v) c = std::min<std::uint8_t>(c, 4);
  return v;
}

bool is_dora(const PlayerView& view, TileType t) {
  for (game::Pai p : view.dora_markers())
    if (p.type().dora_next() == t) return true;
  return false;
}

TileType seat_wind(const PlayerView& view) {
  return TileType(27 + view.oya().distance_to(view.seat()));
}

bool is_yakuhai(const PlayerView& view, TileType t) {
  return t.is_dragon() || t == view.bakaze() || t == seat_wind(view);
}

// How much a tile is worth keeping when efficiency ties: lone guest honours go first, then
// terminals, then 2/8, then the middle; yakuhai and dora (red fives included) are kept longest.
int keep_value(const PlayerView& view, game::Pai p) {
  const TileType t = p.type();
  int v = 0;
  if (t.is_honor()) v = is_yakuhai(view, t) ? 2 : 0;
  else if (t.is_terminal()) v = 1;
  else if (t.number() == 2 || t.number() == 8) v = 2;
  else v = 3;
  if (is_dora(view, t)) v += 4;
  if (p.is_red()) v += 4;
  return v;
}

// Deal-in danger of discarding t against the riichi seat r (lower is safer), from r's river and
// the visible counts only:
//   0 genbutsu (r discarded this kind: r cannot ron on it, furiten)
//   1 an honour with 3 copies visible (only a tanki can still wait on it)
//   2 full suji (both suji partners genbutsu; 1/9 and 2/8 and 3/7 need one: 4, 5, 6)
//   3 an honour with 2 visible, 4 any other honour
//   5 half suji (one side of 4, 5 or 6 genbutsu)
//   6 terminal, 7 2 or 8, 8 3-7 (no information)
// Tiles passed by others after the riichi are not tracked: the order between rivers is not in
// the view, and genbutsu from r's own river is the certain part.
int danger(const PlayerView& view, Seat r, TileType t, const TileCounts& visible) {
  std::array<bool, game::kNumTileTypes> gen{};
  for (const game::RiverTile& rt : view.river(r)) gen[ix(rt.pai.type().index())] = true;
  if (gen[ix(t.index())]) return 0;
  if (t.is_honor()) {
    const int seen = visible[ix(t.index())];
    return seen >= 3 ? 1 : seen == 2 ? 3 : 4;
  }
  const int n = t.number();
  const int base = t.index() - (n - 1);
  auto g = [&](int number) { return gen[ix(base + number - 1)]; };
  const bool low = n >= 4 && g(n - 3);   // the wait (n-2, n-1) ... covered by n-3 genbutsu
  const bool high = n <= 6 && g(n + 3);
  const bool need_low = n >= 4, need_high = n <= 6;
  if ((!need_low || low) && (!need_high || high)) return 2;
  if (low || high) return 5;
  if (t.is_terminal()) return 6;
  if (n == 2 || n == 8) return 7;
  return 8;
}

struct Candidate {
  Action action;
  int danger = 0;   // summed over riichi seats, when folding
  int shanten = 0;  // after the discard
  int ukeire = 0;   // unseen accepted copies after the discard
  int keep = 0;     // keep_value of the discarded tile
};

// The discard that folding, then efficiency, then the keep order prefers; `tie` breaks the rest.
// Ukeire (34 shanten evaluations each) is only counted for the discards that survive the cheaper
// keys (danger, shanten after the discard from one discard_shanten pass), and through a cache of
// this thread's recent hands: in a decision's play-outs (selfplay/actors.cpp) the play-outs of
// one wall hold the other seats' hands alike until they part, so the same hands come back.
template <class Tie>
Action best_discard(const PlayerView& view, game::ActionMask mask, bool fold, Tie&& tie) {
  thread_local game::UkeireCache cache;
  const TileCounts visible = visible_capped(view);
  const game::DiscardShanten after_all = game::discard_shanten(view.hand().closed);
  std::array<Candidate, game::kNumActions> cands{};
  int n = 0;
  for (int a = 0; a < Action::kRiichi; ++a) {
    const Action act(a);
    if (!mask.test(act)) continue;
    const game::Pai p = act.discard_pai();
    Candidate c{act, 0, after_all.after[ix(p.type().index())], 0, keep_value(view, p)};
    if (fold)
      for (int s = 0; s < game::kNumSeats; ++s)
        if (Seat(s) != view.seat() && view.riichi_declared(Seat(s))) c.danger += danger(view, Seat(s), p.type(), visible);
    cands[ix(n++)] = c;
  }
  if (n == 0) return mask.nth(0);
  auto coarse = [](const Candidate& c) { return std::array<int, 2>{c.danger, c.shanten}; };
  auto best_coarse = coarse(cands[0]);
  for (int i = 1; i < n; ++i) best_coarse = std::min(best_coarse, coarse(cands[ix(i)]));
  for (int i = 0; i < n; ++i) {
    Candidate& c = cands[ix(i)];
    if (coarse(c) != best_coarse) continue;
    TileCounts after = view.hand().closed;
    --after[ix(c.action.discard_pai().type().index())];
    c.ukeire = cache(after, visible).unseen;
  }
  auto key = [](const Candidate& c) { return std::array<int, 4>{c.danger, c.shanten, -c.ukeire, c.keep}; };
  auto best = key(cands[0]);
  for (int i = 1; i < n; ++i) best = std::min(best, key(cands[ix(i)]));
  std::array<Action, game::kNumActions> ties{};
  int t = 0;
  for (int i = 0; i < n; ++i)
    if (key(cands[ix(i)]) == best) ties[ix(t++)] = cands[ix(i)].action;
  return ties[ix(t == 1 ? 0 : tie(t))];
}

// Fold: another seat declared riichi, this one did not, and no discard leaves it tenpai.
bool should_fold(const PlayerView& view) {
  if (view.riichi_declared(view.seat())) return false;
  bool threat = false;
  for (int s = 0; s < game::kNumSeats; ++s)
    threat |= Seat(s) != view.seat() && view.riichi_declared(Seat(s));
  if (!threat) return false;
  const TileCounts& closed = view.hand().closed;
  int total = 0;
  for (auto c : closed) total += c;
  if (total % 3 != 2) return false;
  return game::discard_shanten(closed).best >= 1;
}

}  // namespace

void GreedyAgent::start_game(Seat seat, const game::GameKey& key) {
  rng_ = game::Xoshiro256ss(game::derive(key, game::labels::exploration, {static_cast<std::uint64_t>(seat.index())}));
}

Action GreedyAgent::act(const PlayerView& view, const game::Decision& d) {
  if (d.mask.test(Action(Action::kAgari))) return Action(Action::kAgari);
  switch (d.phase) {
    case game::Phase::turn:
    case game::Phase::riichi_discard: return turn(view, d);
    case game::Phase::response: return response(view, d);
    case game::Phase::chankan:
      return d.mask.test(Action(Action::kPass)) ? Action(Action::kPass) : d.mask.nth(0);
    case game::Phase::kan_select:
    case game::Phase::idle: break;
  }
  return d.mask.nth(0);
}

Action GreedyAgent::turn(const PlayerView& view, const game::Decision& d) {
  const TileCounts& closed = view.hand().closed;
  // Kyuushu kyuuhai unless the hand is already close (kokushi or otherwise).
  if (d.mask.test(Action(Action::kRyukyoku)) && game::shanten_best(closed) > 2) return Action(Action::kRyukyoku);
  if (d.mask.test(Action(Action::kRiichi))) return Action(Action::kRiichi);
  // After riichi a legal kan keeps the waits (the view checks it): a free extra dora.
  if (d.mask.test(Action(Action::kKan)) && view.riichi(view.seat())) return Action(Action::kKan);
  const bool fold = d.phase == game::Phase::turn && should_fold(view);
  return best_discard(view, d.mask, fold, [&](int n) { return static_cast<int>(rng_.below(static_cast<std::uint32_t>(n))); });
}

Action GreedyAgent::response(const PlayerView& view, const game::Decision& d) {
  const Action pass(Action::kPass);
  const Action pon(Action::kPon);
  if (d.mask.test(pon) && is_yakuhai(view, view.last_tile().type())) {
    // Pon only when it takes the hand closer: the best discard after the pon beats staying put.
    TileCounts after = view.hand().closed;
    const auto t = ix(view.last_tile().type().index());
    after[t] = static_cast<std::uint8_t>(after[t] - 2);
    if (game::discard_shanten(after).best < game::shanten_best(view.hand().closed)) return pon;
  }
  return d.mask.test(pass) ? pass : d.mask.nth(0);
}

}  // namespace hydra::selfplay
