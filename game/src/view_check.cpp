#include "hydra/game/view_check.hpp"

#include "hydra/common/index.hpp"
#include "hydra/game/shanten.hpp"

namespace hydra::game {
namespace {


std::string seat_text(const PlayerView& view) { return "seat " + std::to_string(view.seat().index()); }

}  // namespace

TileCounts visible_tiles(const PlayerView& view) {
  TileCounts v = view.hand().closed;
  for (int s = 0; s < kNumSeats; ++s) {
    for (const Meld& m : view.melds(Seat(s))) m.add_to(v);
    for (const RiverTile& r : view.river(Seat(s)))
      if (!r.called && !r.pai.is_unknown()) ++v[ix(r.pai.type().index())];
  }
  for (Pai p : view.dora_markers())
    if (!p.is_unknown()) ++v[ix(p.type().index())];
  return v;
}

std::string inconsistency(const PlayerView& view) {
  const TileCounts v = visible_tiles(view);
  for (int t = 0; t < kNumTileTypes; ++t)
    if (v[ix(t)] > 4)
      return std::to_string(v[ix(t)]) + " visible copies of " + std::string(mjai_name(Pai(TileType(t)))) +
             " (hand, melds, rivers and dora indicators)";
  const Hand& hand = view.hand();
  if (hand.closed_size() == 0 && hand.num_melds == 0) return {};  // not dealt yet
  const int tiles = hand.closed_size() + 3 * hand.num_melds;
  const Phase phase = view.phase();
  const bool to_discard = phase == Phase::turn || phase == Phase::riichi_discard;
  const bool to_respond = phase == Phase::response || phase == Phase::chankan;
  if ((to_discard && tiles != 14) || (to_respond && tiles != 13) || tiles < 13 || tiles > 14)
    return seat_text(view) + " would hold " + std::to_string(hand.closed_size()) + " closed tiles and " +
           std::to_string(hand.num_melds) + " melds in phase " + std::string(to_string(phase));
  if (phase == Phase::riichi_discard) {
    TileCounts c = hand.closed;
    bool tenpai_discard = false;
    for (int t = 0; t < kNumTileTypes && !tenpai_discard; ++t) {
      if (c[ix(t)] == 0) continue;
      --c[ix(t)];
      tenpai_discard = shanten_best(c) == 0;
      ++c[ix(t)];
    }
    if (!tenpai_discard) return seat_text(view) + " declares riichi without a discard that keeps it tenpai";
  }
  if (phase == Phase::turn && view.riichi_declared(view.seat()) && view.last_drawn().is_unknown())
    return seat_text(view) + " is to discard in riichi without a drawn tile (a call after riichi?)";
  return {};
}

}  // namespace hydra::game
