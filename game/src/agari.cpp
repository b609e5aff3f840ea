#include "hydra/game/agari.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {
namespace {

int total(const TileCounts& c) {
  int n = 0;
  for (auto v : c) n += v;
  return n;
}

constexpr std::array<int, 13> kOrphans = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

}  // namespace

bool is_normal_agari(const TileCounts& closed) {
  if (total(closed) % 3 != 2) return false;
  bool found = false;
  for_each_decomposition(closed, [&](const Decomposition&) { found = true; });
  return found;
}

bool is_chiitoitsu(const TileCounts& closed) {
  int pairs = 0;
  for (auto v : closed) {
    if (v == 2) ++pairs;
    else if (v != 0) return false;
  }
  return pairs == 7;
}

bool is_kokushi(const TileCounts& closed) {
  int pairs = 0;
  for (int t : kOrphans) {
    const int v = closed[ix(t)];
    if (v == 0 || v > 2) return false;
    pairs += v == 2 ? 1 : 0;
  }
  return pairs == 1 && total(closed) == 14;
}

bool is_agari(const TileCounts& closed) {
  return is_normal_agari(closed) || is_chiitoitsu(closed) || is_kokushi(closed);
}

TileMask winning_tiles(const TileCounts& closed) {
  TileMask waits;
  if (total(closed) % 3 != 1) return waits;
  TileCounts c = closed;
  for (int t = 0; t < kNumTileTypes; ++t) {
    auto& v = c[ix(t)];
    if (v == 4) continue;
    ++v;
    if (is_agari(c)) waits.insert(TileType(t));
    --v;
  }
  return waits;
}

}  // namespace hydra::game
