#pragma once

// The 16-value score context the network reads next to the 85x34 planes (docs/MODEL.md), from
// one player's view. One torch-free definition shared by the actors, the pretraining dataset,
// the model agents and model::score_context:
//   [0,4)   score / 100,000 of self, shimocha, toimen, kamicha
//   [4,10)  gaps s_i - s_j / 100,000 for (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)
//   [10,14) overtake thresholds: per seat, the points needed to reach the next higher distinct
//           score (0 for the top score) / 100,000
//   14      round index / 8 clipped to 1 (E1 = 0 ... S4 = 7, West rounds clip), 15: honba / 10
// Each value is computed in double and rounded to float once.

#include <array>

#include "hydra/game/view.hpp"

namespace hydra::encoder {

inline constexpr int kContextSize = 16;
using ScoreContext = std::array<float, kContextSize>;

// `scores` in relative seat order (self first), in points.
ScoreContext score_context(const std::array<int, 4>& scores, int round, int honba);
// From the seat's view: its scores rotated to relative order, its round and honba.
ScoreContext score_context(const game::PlayerView& view);
// E1 = 0 ... E4 = 3, S1 = 4 ... N4 = 15.
int round_index(const game::PlayerView& view);

}  // namespace hydra::encoder
