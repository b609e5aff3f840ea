#pragma once

// Privileged planes (docs/ENCODER.md "Privileged planes"): what the table knows and one seat does
// not, for the privileged critic of PPO (docs/PPO.md "Privileged critic") and never for a policy.
// Everything here is fixed before the seat's pending decision: the three other concealed hands,
// their waits and shanten, the live wall in draw order from the next draw on, and the dead wall.
// Built from scratch from the engine's state at a decision (no incremental state), in the same
// tile space, relative seats and 34-tile planes as the observation (layout.hpp), under the seat's
// suit permutation.

#include <array>
#include <cstdint>

#include "hydra/encoder/augment.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/game/table.hpp"

namespace hydra::encoder {

// The version of this layout, recorded in a critic's checkpoint state: raise it with any change
// to what a privileged plane means.
inline constexpr int kPrivilegedVersion = 1;

namespace priv {
inline constexpr int kHands = 0;       // 12: opponent o (1..3) closed tiles, count >= 1..4: 4 (o - 1) + k
inline constexpr int kWaits = 12;      // 3: opponent o's waits (1 on a waiting tile type; 13-tile hands)
inline constexpr int kShanten = 15;    // 3: opponent o's shanten, min(s, 6) / 6 on every tile (-1 -> 0)
inline constexpr int kNextDraw = 18;   // 4: seat r (0 self .. 3 kamicha): its next live draw, absent calls
inline constexpr int kSoonDraws = 22;  // 4: seat r: count of its next 6 live draws / 4, absent calls
inline constexpr int kLiveWall = 26;   // 4: the rest of the live wall, count >= 1..4
inline constexpr int kUra = 30;        // 1: ura-dora indicators under the revealed indicators (count)
inline constexpr int kRinshan = 31;    // 1: rinshan tiles not yet drawn (count)
inline constexpr int kHiddenDora = 32; // 1: dora indicators not yet revealed (count)
// 4: seat r (0 self .. 3 kamicha), when tenpai: the first of its next 6 live draws (absent calls)
// that completes its hand, at that tile, valued (6 - k) / 6 for its k-th draw (k = 0 next).
inline constexpr int kWinningDraw = 33;
}  // namespace priv

inline constexpr int kPrivilegedChannels = 37;
inline constexpr int kPrivilegedSize = kPrivilegedChannels * kTiles;
// The draws counted by priv::kSoonDraws, per seat.
inline constexpr int kSoonDrawsPerSeat = 6;

// Writes the privileged planes of `seat`'s view of `table` into out[kPrivilegedSize] (every value
// written), tiles under `perm`.
void privileged_planes(const game::Table& table, game::Seat seat, const SuitPerm& perm, float* out);

}  // namespace hydra::encoder
