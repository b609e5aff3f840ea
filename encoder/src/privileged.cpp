// Privileged planes (privileged.hpp).

#include "hydra/encoder/privileged.hpp"

#include <algorithm>
#include <array>

#include "hydra/game/wall.hpp"
#include "hydra/common/index.hpp"

namespace hydra::encoder {
namespace {

float* plane(float* out, int channel) { return out + channel * kTiles; }

int tile_index(const SuitPerm& perm, game::TileType t) { return perm(t).index(); }

}  // namespace

void privileged_planes(const game::Table& table, game::Seat seat, const SuitPerm& perm, float* out) {
  std::fill(out, out + kPrivilegedSize, 0.0f);
  for (int o = 1; o <= 3; ++o) {
    const game::PlayerView& v = table.view(seat.next(o));
    const game::TileCounts& closed = v.hand().closed;
    for (int t = 0; t < kTiles; ++t) {
      const int n = closed[ix(t)];
      const int at = tile_index(perm, game::TileType(t));
      for (int k = 0; k < std::min(n, 4); ++k) plane(out, priv::kHands + 4 * (o - 1) + k)[at] = 1.0f;
      if (v.waits().contains(game::TileType(t))) plane(out, priv::kWaits + o - 1)[at] = 1.0f;
    }
    const int s = std::clamp(static_cast<int>(v.shanten()), 0, 6);
    std::fill_n(plane(out, priv::kShanten + o - 1), kTiles, static_cast<float>(s) / 6.0f);
  }

  const game::Wall& wall = table.wall();
  const auto& tiles = wall.tiles();
  const int kans = wall.kans();
  const int draws = game::Wall::kLiveTiles - wall.live_left() - kans;
  const int next = game::Wall::kLiveBegin + draws;  // index of the next live draw
  const int end = game::Wall::kDeadBegin - kans;    // one past the last drawable tile
  // Absent calls the live draws go round the table from the seat after the one whose turn it is.
  const int first = (table.turn().index() + 1 - seat.index() + 4) % 4;  // relative seat of the next draw
  std::array<game::TileMask, 4> waits{};  // per relative seat
  for (int r = 0; r < 4; ++r) waits[ix(r)] = table.view(seat.next(r)).waits();
  std::array<bool, 4> won{};  // per relative seat: its first winning draw is marked
  for (int i = next; i < end; ++i) {
    const int k = i - next;
    const game::TileType type = tiles[ix(i)].type();
    const int at = tile_index(perm, type);
    const int r = (first + k) % 4;
    const int own_draw = k / 4;  // the seat's 0-based draw number
    if (own_draw < kSoonDrawsPerSeat && !won[ix(r)] && waits[ix(r)].contains(type)) {
      plane(out, priv::kWinningDraw + r)[at] = static_cast<float>(kSoonDrawsPerSeat - own_draw) / kSoonDrawsPerSeat;
      won[ix(r)] = true;
    }
    if (k < 4) plane(out, priv::kNextDraw + r)[at] = 1.0f;
    if (k < 4 * kSoonDrawsPerSeat) plane(out, priv::kSoonDraws + r)[at] += 0.25f;
    float* live = plane(out, priv::kLiveWall);
    int c = 0;
    while (c < 4 && live[c * kTiles + at] > 0.0f) ++c;
    if (c < 4) live[c * kTiles + at] = 1.0f;
  }
  const int revealed = wall.indicators_revealed();
  for (int i = 0; i < game::Wall::kMaxIndicators; ++i) {
    const int ura = tile_index(perm, tiles[static_cast<std::size_t>(game::Wall::ura_index(i))].type());
    const int dora = tile_index(perm, tiles[static_cast<std::size_t>(game::Wall::dora_index(i))].type());
    if (i < revealed) plane(out, priv::kUra)[ura] += 1.0f;
    else plane(out, priv::kHiddenDora)[dora] += 1.0f;
  }
  for (int k = kans; k < game::Wall::kMaxKans; ++k)
    plane(out, priv::kRinshan)[tile_index(perm, tiles[static_cast<std::size_t>(game::Wall::rinshan_index(k))].type())] +=
        1.0f;
}

}  // namespace hydra::encoder
