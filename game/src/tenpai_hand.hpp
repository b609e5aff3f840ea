#pragma once

// A random tenpai hand, for the deals of what a seat cannot see (Table::redeal_hidden) and for a
// table rebuilt from one seat's view (rebuild.hpp). Internal to hydra_game.

#include <optional>

#include "hydra/game/rng.hpp"
#include "hydra/game/shanten.hpp"
#include "hydra/game/tile.hpp"

namespace hydra::game {

// A tenpai hand of `size` (3n + 1) closed tiles from kinds counted in `counts`: n random sets
// (each triplet or run the counts allow equally likely) and a random pair, less one random tile,
// whose waits miss every kind in `safe` (a riichi seat's own discards: it could not ron on
// them). Its kind counts, or none when 64 attempts failed.
std::optional<TileCounts> tenpai_hand(const TileCounts& counts, int size, TileMask safe, Xoshiro256ss& rng);

}  // namespace hydra::game
