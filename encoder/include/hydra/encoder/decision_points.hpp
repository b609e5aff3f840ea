#pragma once

// Observers frozen at decision points of seeded random-agent games, for timing the encoder on
// realistic states: the Google Benchmark (tests/bench/bench_encoder.cpp) and `hydra bench
// encoder` both draw their inputs from here.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hydra/encoder/encoder.hpp"
#include "hydra/game/rules.hpp"

namespace hydra::encoder {

struct DecisionPoint {
  Observer obs;        // planes encoded (clean) at the decision point
  GroupMask touched;   // the groups the last event dirtied: what an incremental encode rewrites
};

enum class DecisionKind {
  any_decision,         // every decision point
  after_other_discard,  // right after another seat's discard (call or pass decisions)
  after_own_draw,       // right after the own draw
};

// Up to `max` decision points of the chosen kind, in event order, from random-agent games 0, 1, ...
// of master seed `seed` under `rules` (at most `games` games are played).
std::vector<DecisionPoint> decision_points(const game::TableRules& rules, DecisionKind kind, int games,
                                         std::size_t max, std::uint64_t seed = 2026);

}  // namespace hydra::encoder
