#include "hydra/game/wall.hpp"

#include <string>

#include "hydra/common/error.hpp"
#include "hydra/game/rng.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {

Wall::Wall(const Tiles& tiles) : tiles_(tiles) {
  std::array<bool, kNumTiles> seen{};
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    const int id = tiles[i].id();
    if (id >= kNumTiles || seen[ix(id)])
      throw Error("wall: position " + std::to_string(i) + " holds tile id " + std::to_string(id) +
                  (id >= kNumTiles ? " (ids are 0..135)" : " twice (a wall is a permutation of 0..135)"));
    seen[ix(id)] = true;
  }
  for (int i = 0; i < kMaxIndicators; ++i) {
    dora_[ix(i)] = tiles_[static_cast<std::size_t>(dora_index(i))];
    ura_[ix(i)] = tiles_[static_cast<std::size_t>(ura_index(i))];
  }
}

Wall::Tiles Wall::shuffled(const WallKey& key) {
  Tiles t;
  for (int i = 0; i < kNumTiles; ++i) t[ix(i)] = Tile(i);
  Xoshiro256ss rng(key);
  shuffle(std::span<Tile>(t), rng);
  return t;
}

std::array<Tile, 13> Wall::haipai(int seat_offset) const {
  HYDRA_CHECK(seat_offset >= 0 && seat_offset < 4, "Wall::haipai: seat offset must be 0..3");
  std::array<Tile, 13> out;
  for (int k = 0; k < 13; ++k) out[ix(k)] = tiles_[static_cast<std::size_t>(deal_index(seat_offset, k))];
  return out;
}

Tile Wall::draw() {
  HYDRA_CHECK(live_left() > 0, "Wall::draw: the live wall is empty");
  last_was_rinshan_ = false;
  return tiles_[static_cast<std::size_t>(kLiveBegin + draws_++)];
}

Tile Wall::draw_rinshan() {
  HYDRA_CHECK(kans_ < kMaxKans, "Wall::draw_rinshan: four rinshan tiles already drawn");
  HYDRA_CHECK(live_left() > 0, "Wall::draw_rinshan: no kan is possible with the live wall empty");
  last_was_rinshan_ = true;
  return tiles_[static_cast<std::size_t>(rinshan_index(kans_++))];
}

int Wall::unseen_positions(std::array<int, kNumTiles>& at) const {
  int n = 0;
  for (int i = kLiveBegin + draws_; i < kDeadBegin; ++i) at[ix(n++)] = i;  // the live wall left, kans' share included
  for (int k = kans_; k < kMaxKans; ++k) at[ix(n++)] = rinshan_index(k);
  for (int i = revealed_; i < kMaxIndicators; ++i) at[ix(n++)] = dora_index(i);
  for (int i = 0; i < kMaxIndicators; ++i) at[ix(n++)] = ura_index(i);
  return n;
}

void Wall::set_unseen(std::span<const Tile> tiles) {
  std::array<int, kNumTiles> at{};
  const int n = unseen_positions(at);
  HYDRA_CHECK(tiles.size() == ix(n), "Wall::set_unseen: not one tile per unseen position");
  for (std::size_t k = 0; k < tiles.size(); ++k) tiles_[ix(at[k])] = tiles[k];
  for (int i = 0; i < kMaxIndicators; ++i) {
    dora_[ix(i)] = tiles_[static_cast<std::size_t>(dora_index(i))];
    ura_[ix(i)] = tiles_[static_cast<std::size_t>(ura_index(i))];
  }
}

void Wall::shuffle_unseen(Xoshiro256ss& rng) {
  std::array<int, kNumTiles> at{};
  const int n = unseen_positions(at);
  std::array<Tile, kNumTiles> tiles{};
  for (int k = 0; k < n; ++k) tiles[ix(k)] = tiles_[ix(at[ix(k)])];
  const std::span<Tile> unseen(tiles.data(), ix(n));
  shuffle(unseen, rng);
  set_unseen(unseen);
}

void Wall::reveal_kan_dora() {
  // An ankan reveals before its rinshan draw, so one reveal may run one kan ahead of kans_.
  HYDRA_CHECK(revealed_ < kMaxIndicators && revealed_ <= kans_ + 1, "Wall::reveal_kan_dora: more indicators than kans");
  ++revealed_;
}

}  // namespace hydra::game
