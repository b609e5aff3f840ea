// Tenhou's meld code (the `m` attribute of <N>): bits 0-1 say where the called tile came from
// (relative seat: 0 self, 1 shimocha, 2 toimen, 3 kamicha); bit 2 chi, bit 3 pon, bit 4 kakan,
// bit 5 nukidora (3-player), none of them a kan (ankan when from self).
//   chi:  m >> 10 = (lowest kind index over 21 sequences) * 3 + position of the called tile;
//         bits 3-4, 5-6, 7-8: which copy (0-3) of each of the three kinds
//   pon / kakan: m >> 9 = kind * 3 + position of the called tile among the three used copies;
//         bits 5-6: the copy left out of the pon (the one a kakan adds)
//   kan:  m >> 8 = the id of the called tile (ankan: any copy of the kind)

#include <vector>

#include "hydra/data/tenhou.hpp"

namespace hydra::data {

game::Event decode_tenhou_meld(int who, unsigned m) {
  using game::EventType;
  game::Event e;
  e.actor = game::Seat(who);
  const int from = static_cast<int>(m & 3);
  auto pai = [](unsigned id) { return game::Pai(game::Tile(static_cast<int>(id))); };
  auto check_kind = [m](unsigned kind) {
    if (kind >= static_cast<unsigned>(game::kNumTileTypes)) throw Error("meld code " + std::to_string(m) + " names no tile");
  };
  if (m & 0x4) {
    unsigned t = m >> 10;
    const unsigned called = t % 3;
    t /= 3;
    if (t >= 21) throw Error("meld code " + std::to_string(m) + ": no such chi");
    const unsigned base = (t / 7) * 9 + t % 7;
    e.type = EventType::chi;
    for (unsigned i = 0; i < 3; ++i) {
      const unsigned id = (base + i) * 4 + ((m >> (3 + 2 * i)) & 3);
      if (i == called) e.pai = pai(id);
      else e.consumed.push_back(pai(id));
    }
  } else if (m & 0x18) {
    const unsigned left_out = (m >> 5) & 3;
    unsigned t = m >> 9;
    const unsigned called = t % 3;
    t /= 3;
    check_kind(t);
    std::vector<unsigned> used;
    for (unsigned k = 0; k < 4; ++k)
      if (k != left_out) used.push_back(t * 4 + k);
    if (m & 0x8) {
      e.type = EventType::pon;
      for (unsigned i = 0; i < 3; ++i) {
        if (i == called) e.pai = pai(used[i]);
        else e.consumed.push_back(pai(used[i]));
      }
    } else {
      e.type = EventType::kakan;
      e.pai = pai(t * 4 + left_out);
      for (unsigned id : used) e.consumed.push_back(pai(id));
      return e;  // kakan has no target: the pon's source is not part of the mjai event
    }
  } else if (m & 0x20) {
    throw UnsupportedRule("unsupported rule: nukidora (3-player north) in meld code " + std::to_string(m));
  } else {
    const unsigned id = m >> 8;
    check_kind(id / 4);
    const unsigned kind = id / 4;
    if (from == 0) {
      e.type = EventType::ankan;
      for (unsigned k = 0; k < 4; ++k) e.consumed.push_back(pai(kind * 4 + k));
      return e;
    }
    e.type = EventType::daiminkan;
    e.pai = pai(id);
    for (unsigned k = 0; k < 4; ++k)
      if (kind * 4 + k != id) e.consumed.push_back(pai(kind * 4 + k));
  }
  if (from == 0) throw Error("meld code " + std::to_string(m) + ": a call from the caller's own seat");
  e.target = game::Seat(who).next(from);
  return e;
}

}  // namespace hydra::data
