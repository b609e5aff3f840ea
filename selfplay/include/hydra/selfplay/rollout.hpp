#pragma once

// What the self-play actors hand the PPO learner: whole episodes (one seat's decisions in one
// kyoku, docs/SELFPLAY.md), each stored contiguously in decision order, as flat arrays indexed by
// decision i in [0, size()). Torch-free, so actors fill it without touching LibTorch and the
// learner turns it into tensors in one copy per field.
//
// Observations are stored as IEEE binary16 (half the memory of fp32; every value the encoder
// writes is in [0, 1] or a small multiple of 1/4, and the recency and score planes keep 11
// significant bits). The actors evaluate the model on the stored (rounded) observation, so the
// learner's first-epoch probability ratio is exactly 1.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "hydra/encoder/context.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/encoder/privileged.hpp"
#include "hydra/game/action.hpp"
#include "hydra/game/event.hpp"

namespace hydra::selfplay {

inline constexpr int kActions = game::kNumActions;
inline constexpr int kContext = encoder::kContextSize;  // encoder::score_context()
inline constexpr int kOpponents = game::kNumSeats - 1;  // the danger head's opponents

struct Rollout {
  // Per decision.
  std::vector<std::uint16_t> obs;        // size() * encoder::kObsSize, binary16 bits
  std::vector<float> context;            // size() * kContext, the score context
  std::vector<std::uint64_t> legal;      // game::ActionMask::bits(): bit a, action a is legal
  std::vector<std::int16_t> action;      // the action taken (index in the 46-space)
  std::vector<float> logp;               // log pi_old(action) of the snapshot that acted
  std::vector<float> value;              // V_old(observation) of that snapshot
  std::vector<float> reward;             // reward after this decision (the kyoku reward lands on the last)
  std::vector<std::uint8_t> done;        // 1 on an episode's last decision
  std::vector<std::uint64_t> opp_waits;  // size() * kOpponents, relative order (shimocha, toimen,
                                         // kamicha): tile-type mask of that opponent's waits at
                                         // the decision, from the full table (0 = not tenpai).
                                         // Labels of the tenpai (waits != 0) and danger heads.
  std::vector<std::int64_t> version;     // inference-snapshot version that chose the action
  // size() * encoder::kPrivilegedSize binary16 bits of the privileged planes (privileged.hpp), or
  // empty when the actors were not asked for them (selfplay::Actors with a privileged critic).
  // Read by the learner's critic only, never by a policy.
  std::vector<std::uint16_t> priv;
  // Greedy play-outs (ppo.advantage = rollout; docs/PPO.md "Greedy play-outs"), or both empty:
  // paired[i] = 1 when decision i was eligible (drawn at selfplay.branch_rate among the table's only
  // pending decisions); paired_advantage[i] is then the mean over the walls of Q(a) - Q(g) of its
  // action a against the greedy bot's choice g (0 when a = g, which needs no play-out).
  std::vector<std::uint8_t> paired;
  std::vector<float> paired_advantage;
  // Play-outs of every likely action (ppo.advantage = rollout with ppo.policy_gradient = expected;
  // docs/PPO.md "Play-outs of every likely action"), or both empty: bit a of played_out[i] is set
  // for each action of decision i that was played out (the greedy bot's choice g among them), and
  // action_value[i * kActions + a] is then the mean over the walls of Q(a) - Q(g) (0 for g and
  // for the actions not played out).
  std::vector<std::uint64_t> played_out;
  std::vector<float> action_value;
  // Where each decision comes from (diagnostics and tests; a Rollout built elsewhere may leave
  // these empty): the game index and the absolute seat.
  std::vector<std::int64_t> game;
  std::vector<std::uint8_t> seat;

  // Per rollout (monitoring; not used by the loss).
  std::int64_t games = 0;      // games finished while collecting
  std::int64_t kyoku = 0;
  std::int64_t all_decisions = 0;  // every decision of those games, any seat or agent (size(): the stored ones)

  std::size_t size() const { return action.size(); }
  // The legal masks as a policy reads them (PolicyBatch::legal).
  std::vector<game::ActionMask> legal_masks() const;
  void clear();
  void reserve(std::size_t n);
  // Appends all of `other` (its episodes stay whole and contiguous).
  void append(const Rollout& other);
  // Throws InvariantError unless every per-decision array has the right length, the last
  // decision ends an episode and every action is legal.
  void check() const;
};

// binary16 conversion (round to nearest even; the encoder's values never overflow).
std::uint16_t to_half(float f);
float from_half(std::uint16_t h);
void to_half(const float* in, std::uint16_t* out, std::size_t n);
void from_half(const std::uint16_t* in, float* out, std::size_t n);
// Rounds n encoder values to binary16 in place (the self-play network sees exactly what the
// learner will read back) and, when `bits` is not null, stores their binary16 bits there.
void round_to_half(float* values, std::uint16_t* bits, std::size_t n);

}  // namespace hydra::selfplay
