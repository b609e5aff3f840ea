#include "hydra/game/hand.hpp"

#include "hydra/common/error.hpp"
#include "hydra/common/text.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {
namespace {

// Built by appending: GCC 12 warns (-Wrestrict, a known false positive) on "'" + std::string.
std::string quoted(std::string_view s) {
  std::string q(1, '\'');
  q += s;
  q += '\'';
  return q;
}

}  // namespace

int Hand::closed_size() const {
  int n = 0;
  for (auto c : closed) n += c;
  return n;
}

bool Hand::is_menzen() const {
  for (int i = 0; i < num_melds; ++i)
    if (melds[ix(i)].is_open()) return false;
  return true;
}

int Hand::red_count() const {
  int n = (closed_red & 1) + (closed_red >> 1 & 1) + (closed_red >> 2 & 1);
  for (int i = 0; i < num_melds; ++i) n += melds[ix(i)].red_count();
  return n;
}

TileCounts Hand::all_tiles() const {
  TileCounts c = closed;
  for (int i = 0; i < num_melds; ++i) melds[ix(i)].add_to(c);
  return c;
}

void Hand::add(Pai p) {
  ++closed[ix(p.type().index())];
  if (p.is_red()) closed_red |= red_bit(p.type());
}

void Hand::remove(Pai p) {
  auto& c = closed[ix(p.type().index())];
  HYDRA_CHECK(c > 0, "removing a tile the hand does not hold");
  --c;
  if (p.is_red()) closed_red = static_cast<std::uint8_t>(closed_red & ~red_bit(p.type()));
}

void Hand::add_meld(const Meld& m) {
  if (num_melds >= kMaxMelds) throw Error("a hand has at most four melds");
  melds[num_melds++] = m;
}

void validate_hand(const Hand& hand, std::string_view what) {
  const std::string name = quoted(what);
  const TileCounts all = hand.all_tiles();
  for (int t = 0; t < kNumTileTypes; ++t)
    if (all[ix(t)] > 4)
      throw Error("hand " + text::excerpt(name) + " has " + std::to_string(all[ix(t)]) + " copies of " +
                  std::string(mjai_name(Pai(TileType(t)))) + " (at most 4)");
  int reds = hand.closed_red;
  for (int i = 0; i < hand.num_melds; ++i) {
    const Meld& m = hand.melds[ix(i)];
    for (int k = 0; k < m.size(); ++k) {
      if (!m.tile(k).is_red()) continue;
      const int bit = red_bit(m.tile(k).type());
      if (reds & bit) throw Error("hand " + text::excerpt(name) + " has two red " + std::string(mjai_name(Pai(m.tile(k).type()))));
      reds |= bit;
    }
  }
  for (int s = 0; s < 3; ++s)
    if ((hand.closed_red >> s & 1) && hand.closed[static_cast<std::size_t>(s * 9 + 4)] == 0)
      throw Error("hand " + text::excerpt(name) + ": red five bit without a five (internal)");
  const int n = hand.closed_size();
  const int total = n + 3 * hand.num_melds;
  if (total != 13 && total != 14)
    throw Error("hand " + text::excerpt(name) + " has " + std::to_string(n) + " closed tiles and " + std::to_string(hand.num_melds) +
                " melds: expected 13 or 14 tiles in all (a kan counts as 3)");
}

Hand make_hand(const std::vector<Pai>& closed, const std::vector<Meld>& melds, std::string_view what) {
  Hand h;
  const std::string name = quoted(what);
  for (Pai p : closed) {
    if (p.is_unknown()) throw Error("hand " + text::excerpt(name) + " has an unknown tile");
    if (p.is_red() && (h.closed_red & red_bit(p.type())))
      throw Error("hand " + text::excerpt(name) + " has two red " + std::string(mjai_name(Pai(p.type()))));
    if (h.closed[ix(p.type().index())] == 4)
      throw Error("hand " + text::excerpt(name) + " has more than 4 copies of " + std::string(mjai_name(Pai(p.type()))));
    h.add(p);
  }
  if (melds.size() > Hand::kMaxMelds) throw Error("hand " + text::excerpt(name) + " has more than four melds");
  for (const Meld& m : melds) h.add_meld(m);
  validate_hand(h, what);
  return h;
}

Hand make_hand(std::string_view closed_compact, const std::vector<Meld>& melds) {
  return make_hand(parse_compact(closed_compact), melds, closed_compact);
}

std::vector<Pai> closed_tiles(const Hand& hand) {
  std::vector<Pai> out;
  for (int t = 0; t < kNumTileTypes; ++t) {
    const TileType type(t);
    int n = hand.closed[ix(t)];
    if (type.is_five() && (hand.closed_red & red_bit(type)) && n > 0) {
      out.emplace_back(type, true);
      --n;
    }
    for (int k = 0; k < n; ++k) out.emplace_back(type);
  }
  return out;
}

std::string to_string(const Hand& hand) {
  std::string out = to_compact(closed_tiles(hand));
  for (int i = 0; i < hand.num_melds; ++i) {
    out += ' ';
    out += to_string(hand.melds[ix(i)]);
  }
  return out;
}

}  // namespace hydra::game
