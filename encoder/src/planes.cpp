// The channel writers, one per group. Each writes every float of its channels, so rewriting a
// group never depends on what the buffer held before. The exact definition of every channel is
// next to the code that writes it (and in docs/ENCODER.md).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "hydra/encoder/encoder.hpp"
#include "hydra/game/shanten.hpp"

namespace hydra::encoder {
namespace {

using game::Meld;
using game::MeldKind;
using game::PlayerView;
using game::Seat;
using game::TileCounts;

constexpr std::size_t ix(int i) { return static_cast<std::size_t>(i); }

// exp(-0.2 * age) for every age a river can reach (a river holds at most 48 discards).
const std::array<float, 64> kDecay = [] {
  std::array<float, 64> d{};
  for (std::size_t a = 0; a < d.size(); ++a) d[a] = static_cast<float>(std::exp(-0.2 * static_cast<double>(a)));
  return d;
}();

float* plane(float* obs, int channel) { return obs + channel * kTiles; }

void fill(float* p, float x) { std::fill_n(p, kTiles, x); }

void from_mask(float* p, std::uint64_t m) {
  for (int t = 0; t < kTiles; ++t) p[t] = static_cast<float>((m >> t) & 1U);
}

// Four planes: count >= 1, >= 2, >= 3, == 4 (the last is >= 4: no kind has five copies).
void thermometer4(float* p, const TileCounts& c) {
  for (int k = 0; k < 4; ++k)
    for (int t = 0; t < kTiles; ++t) p[k * kTiles + t] = c[ix(t)] > k ? 1.0F : 0.0F;
}

TileCounts meld_counts(const PlayerView& v, Seat s) {
  TileCounts c{};
  for (const Meld& m : v.melds(s)) m.add_to(c);
  return c;
}

// Channels 0-3: own closed tiles (the drawn tile included) as a count thermometer.
// Channels 40-42: the red 5m / 5p / 5s is among the own closed tiles or own melds (whole plane).
void write_hand(const PlayerView& v, float* obs) {
  thermometer4(plane(obs, ch::kHand), v.hand().closed);
  unsigned red = v.hand().closed_red;
  for (const Meld& m : v.melds(v.seat()))
    for (int k = 0; k < m.size(); ++k)
      if (m.tile(k).is_red()) red |= game::red_bit(m.tile(k).type());
  for (int s = 0; s < 3; ++s) fill(plane(obs, ch::kRed + s), static_cast<float>((red >> s) & 1U));
}

// Channels 4-7: tiles in the own declared melds (chi, pon, kans; an ankan too, since its tiles
// left the closed hand), same thermometer.
void write_own_melds(const PlayerView& v, float* obs) { thermometer4(plane(obs, ch::kOwnMelds), meld_counts(v, v.seat())); }

// Channel 8: the tile of the own last draw, one-hot, while it is the turn that draw opened
// (cleared by the own discard, call or kan).
void write_drawn(const Book& b, float* obs) {
  float* p = plane(obs, ch::kDrawn);
  fill(p, 0.0F);
  if (!b.drawn().is_unknown()) p[b.drawn().type().index()] = 1.0F;
}

// Channels 9, 10 (only while holding 3n+2 closed tiles, i.e. after a draw or a chi/pon; else 0):
//   9: discarding this type leaves the best shanten reachable now (DiscardShanten::efficient);
//  10: discarding it leaves a shanten below the shanten before the last draw or call.
// Channels 55-58: own best shanten over normal, chiitoitsu and kokushi, one-hot {0, 1, 2, >= 3};
//   with 3n+2 tiles the best shanten after a discard (a complete hand counts as 0). All zero
//   before the first deal.
void write_shanten(const PlayerView& v, const Book& b, float* obs) {
  const TileCounts& c = v.hand().closed;
  int n = 0;
  for (std::uint8_t x : c) n += x;
  float* eff = plane(obs, ch::kEfficient);
  float* prog = plane(obs, ch::kProgress);
  int best = -2;
  if (n % 3 == 2) {
    const game::DiscardShanten ds = game::discard_shanten(c);
    from_mask(eff, ds.efficient().bits());
    from_mask(prog, ds.lowering(b.shanten_before()).bits());
    best = ds.best;
  } else {
    fill(eff, 0.0F);
    fill(prog, 0.0F);
    if (n % 3 == 1) best = game::shanten_best(c);
  }
  for (int k = 0; k < 4; ++k) fill(plane(obs, ch::kShanten + k), 0.0F);
  if (best > -2) fill(plane(obs, ch::kShanten + std::clamp(best, 0, 3)), 1.0F);
}

// Channels 11-22, for each player p (0 self, 1 shimocha, 2 toimen, 3 kamicha) at 11 + 3p:
//   +0 the type is in p's river (called-away discards included);
//   +1 p discarded the type from the hand (tedashi) at least once;
//   +2 exp(-0.2 * age) of p's latest discard of the type, age = p's discards since it (0 for
//      p's last discard); 0 when never discarded.
void write_discards(const Book& b, float* obs) {
  for (int rel = 0; rel < 4; ++rel) {
    const SeatBook& s = b.seat(b.me().next(rel));
    float* p = plane(obs, ch::kRiver + 3 * rel);
    from_mask(p, s.discarded);
    from_mask(p + kTiles, s.tedashi);
    float* rec = p + 2 * kTiles;
    for (int t = 0; t < kTiles; ++t) {
      const int last = s.last[ix(t)];
      rec[t] = last < 0 ? 0.0F : kDecay[ix(s.river - 1 - last)];
    }
  }
}

// Channels 23-34, for each player p at 23 + 3p: copies of the type in p's chi melds, pon melds
// and kan melds (daiminkan, kakan, ankan), each divided by 4.
void write_melds(const PlayerView& v, const Book& b, float* obs) {
  for (int rel = 0; rel < 4; ++rel) {
    TileCounts c[3] = {};
    for (const Meld& m : v.melds(b.me().next(rel))) {
      const int k = m.kind() == MeldKind::chi ? 0 : m.kind() == MeldKind::pon ? 1 : 2;
      m.add_to(c[k]);
    }
    for (int k = 0; k < 3; ++k) {
      float* p = plane(obs, ch::kMelds + 3 * rel + k);
      for (int t = 0; t < kTiles; ++t) p[t] = static_cast<float>(c[k][ix(t)]) * 0.25F;
    }
  }
}

// Channels 35-39: dora indicators revealed so far, counted per type, thermometer >= 1 .. >= 5
// (>= 5 cannot happen with four copies of a kind; the channel is kept for the layout).
void write_dora(const PlayerView& v, float* obs) {
  TileCounts c{};
  for (game::Pai p : v.dora_markers()) ++c[ix(p.type().index())];
  for (int k = 0; k < 5; ++k) {
    float* p = plane(obs, ch::kDora + k);
    for (int t = 0; t < kTiles; ++t) p[t] = c[ix(t)] > k ? 1.0F : 0.0F;
  }
}

// Whole planes, per player p in relative order:
//   43 + p: p declared riichi (from its reach event on);
//   47 + p: p's score / 100,000;  51 + p: (own score - p's score) / 30,000 (0 for p = self);
//   59: round index / 8 (E1 = 0 .. S4 = 7; West and later rounds clipped to 1);
//   60: honba / 10;  61: riichi sticks on the table / 10.
void write_meta(const PlayerView& v, float* obs) {
  const Seat me = v.seat();
  const double own = v.scores()[ix(me.index())];
  for (int rel = 0; rel < 4; ++rel) {
    const Seat s = me.next(rel);
    const double score = v.scores()[ix(s.index())];
    fill(plane(obs, ch::kRiichi + rel), v.riichi_declared(s) ? 1.0F : 0.0F);
    fill(plane(obs, ch::kScore + rel), static_cast<float>(score / 100000.0));
    fill(plane(obs, ch::kScoreDiff + rel), static_cast<float>((own - score) / 30000.0));
  }
  const int round = (v.bakaze().index() - 27) * 4 + v.kyoku() - 1;
  fill(plane(obs, ch::kRound), static_cast<float>(std::min(round, 8)) / 8.0F);
  fill(plane(obs, ch::kHonba), static_cast<float>(v.honba()) / 10.0F);
  fill(plane(obs, ch::kSticks), static_cast<float>(v.kyotaku()) / 10.0F);
}

// The safety channels, per opponent o (1 shimocha, 2 toimen, 3 kamicha; plane base + o - 1).
// G(o) = the types o cannot ron on: every type in o's river (discard furiten) plus every type
// passed since o's riichi declaration tile (riichi furiten). On suited tiles n = 1..9:
//   62: genbutsu, G(o);
//   65: o discarded the type from the hand (tedashi; its tsumogiri alone does not count);
//   68: the type was passed after o's riichi declaration tile (0 while o is not in riichi);
//   71: suji, the share of the ryanmen waits on the tile that G(o) rules out: the partners are
//       n - 3 (for n >= 4) and n + 3 (for n <= 6); value = partners in G(o) / partners, so 1 for
//       a full suji, 0.5 for one side of 4-6; honours 0;
//   74: half-suji, n in 4..6 with exactly one of its two partners in G(o);
//   77: matagi-suji danger, for a suited type not in G(o): max over o's tedashi types X of the same
//       suit with |n - X| in {1, 2} (the waits of the ryanmen shapes that held X) of
//       exp(-0.2 * age), age = o's discards since its latest tedashi of X; so the tiles around a
//       fresh tedashi (the riichi tile above all) are near 1 and older ones fade;
//   82: tenpai signal, whole plane: 1 once o declared riichi, else with k = o's open melds
//       (chi, pon, daiminkan) and d = o's discards, 1 for k = 4 (a single tile left) and
//       otherwise min(1, (0.25 + 0.25 k) * min(d, 18) / 18): a closed hand drifts up to 0.25 by
//       the 18th discard, each open meld adds 0.25.
// Global, from the observer's visible counts V (own hand, rivers, every meld, dora indicators):
// a ryanmen wait on n comes from the shape (n+1, n+2) when n <= 6 and from (n-2, n-1) when
// n >= 4; a side is blocked by its neighbour tile n+1 resp. n-1.
//   80: kabe (no-chance): every side of n is blocked by a neighbour with V = 4;
//   81: one-chance: every side's neighbour has V >= 3, and not kabe. Honours 0 in both.
void write_safety(const Book& b, float* obs) {
  for (int o = 1; o < 4; ++o) {
    const SeatBook& s = b.seat(b.me().next(o));
    const std::uint64_t g = s.discarded | s.passed;
    const int i = o - 1;
    from_mask(plane(obs, ch::kGenbutsu + i), g);
    from_mask(plane(obs, ch::kTedashiSafe + i), s.tedashi);
    from_mask(plane(obs, ch::kRiichiSafe + i), s.passed);
    float* suji = plane(obs, ch::kSuji + i);
    float* half = plane(obs, ch::kHalfSuji + i);
    float* matagi = plane(obs, ch::kMatagi + i);
    std::array<float, kTiles> w{};  // recency weight of o's latest tedashi of each type
    for (int t = 0; t < 27; ++t)
      if (s.last_tedashi[ix(t)] >= 0) w[ix(t)] = kDecay[ix(s.river - 1 - s.last_tedashi[ix(t)])];
    for (int t = 0; t < kTiles; ++t) {
      if (t >= 27) {
        suji[t] = half[t] = matagi[t] = 0.0F;
        continue;
      }
      const int n = t % 9;  // 0-based number
      const bool down = n >= 3, up = n <= 5;
      const int safe = (down && ((g >> (t - 3)) & 1U) ? 1 : 0) + (up && ((g >> (t + 3)) & 1U) ? 1 : 0);
      const int sides = (down ? 1 : 0) + (up ? 1 : 0);
      suji[t] = static_cast<float>(safe) / static_cast<float>(sides);
      half[t] = sides == 2 && safe == 1 ? 1.0F : 0.0F;
      float m = 0.0F;
      if (!((g >> t) & 1U))
        for (int d = -2; d <= 2; ++d)
          if (d != 0 && n + d >= 0 && n + d <= 8) m = std::max(m, w[ix(t + d)]);
      matagi[t] = m;
    }
    float tenpai = 1.0F;
    if (!s.riichi && s.open_melds < 4)
      tenpai = std::min(1.0F, (0.25F + 0.25F * static_cast<float>(s.open_melds)) *
                                  static_cast<float>(std::min<int>(s.river, 18)) / 18.0F);
    fill(plane(obs, ch::kTenpai + i), tenpai);
  }
  const TileCounts& vis = b.visible();
  float* kabe = plane(obs, ch::kKabe);
  float* one = plane(obs, ch::kOneChance);
  for (int t = 0; t < kTiles; ++t) {
    if (t >= 27) {
      kabe[t] = one[t] = 0.0F;
      continue;
    }
    const int n = t % 9;
    int lo = 4;  // the fewest visible copies among the blocking neighbours
    if (n <= 5) lo = std::min<int>(lo, vis[ix(t + 1)]);
    if (n >= 3) lo = std::min<int>(lo, vis[ix(t - 1)]);
    kabe[t] = lo == 4 ? 1.0F : 0.0F;
    one[t] = lo == 3 ? 1.0F : 0.0F;
  }
}

}  // namespace

void write_group(Group g, const PlayerView& view, const Book& book, float* obs) {
  switch (g) {
    case Group::hand: write_hand(view, obs); return;
    case Group::open_melds: write_own_melds(view, obs); return;
    case Group::drawn: write_drawn(book, obs); return;
    case Group::shanten: write_shanten(view, book, obs); return;
    case Group::discards: write_discards(book, obs); return;
    case Group::melds: write_melds(view, book, obs); return;
    case Group::dora: write_dora(view, obs); return;
    case Group::meta: write_meta(view, obs); return;
    case Group::safety: write_safety(book, obs); return;
  }
}

void encode_full(const PlayerView& view, const Book& book, float* obs) {
  for (int g = 0; g < kNumGroups; ++g) write_group(static_cast<Group>(g), view, book, obs);
}

const Obs& Encoder::encode(const PlayerView& view) {
  if (dirty_.empty()) return planes_;
  for (int g = 0; g < kNumGroups; ++g)
    if (dirty_.test(static_cast<Group>(g))) write_group(static_cast<Group>(g), view, book_, planes_.v.data());
  dirty_ = GroupMask();
  return planes_;
}

void Encoder::encode_into(const PlayerView& view, float* dst) {
  std::memcpy(dst, encode(view).v.data(), sizeof(float) * kObsSize);
}

}  // namespace hydra::encoder
