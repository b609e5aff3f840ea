#pragma once

// What the self-play actors count (actors.hpp): games, decisions and where the time went, and per
// opponent kind the learner seats' ranks and per-kyoku rates (docs/TRAINING.md "Metrics").

#include <array>
#include <cstdint>

#include <nlohmann/json.hpp>

namespace hydra::selfplay {

// Opponent kinds of a game (config selfplay.opp_self / opp_pool / opp_baseline).
enum class OpponentKind : std::uint8_t { self = 0, pool = 1, baseline = 2 };
inline constexpr int kOpponentKinds = 3;
const char* opponent_kind_name(OpponentKind k);  // "self", "pool", "baseline"

struct KindStats {
  std::int64_t games = 0;          // games of this opponent kind finished
  std::int64_t learner_seats = 0;  // learner seat-games (4 per self game, 1 otherwise)
  std::int64_t learner_kyoku = 0;  // learner seat-kyoku (denominator of the rates below)
  // Counted by the one tally (game_stats.hpp) over the learner seats: wins as the winner, deal-ins
  // as the discarder (a double ron counts twice), riichi declarations, kyoku with a call.
  std::int64_t wins = 0, deal_ins = 0, riichi = 0, calls = 0;
  std::array<std::int64_t, 4> ranks{};  // histogram of the learner seats' final ranks

  double win_rate() const;
  double deal_in_rate() const;
  double riichi_rate() const;
  double call_rate() const;
  double average_rank() const;  // 1..4; 0 when no seats
  KindStats& operator+=(const KindStats& o);
};

struct ActorStats {
  std::int64_t games = 0;
  std::int64_t kyoku = 0;
  std::int64_t decisions = 0;          // every decision answered by an agent or the network
  std::int64_t network_decisions = 0;  // evaluated by a BatchPolicy (all models)
  std::int64_t learner_decisions = 0;  // stored in the rollout
  std::int64_t forced = 0;             // one legal action: taken without the network
  std::int64_t forward_passes = 0;     // BatchPolicy::evaluate calls
  std::int64_t void_games = 0;         // voided by an external baseline's fault: not learned from
  std::int64_t unearned_kyoku = 0;     // learner seat-kyoku without a stored decision: reward dropped
  std::int64_t paired = 0;             // learner decisions eligible for play-outs (ppo.advantage = rollout)
  std::int64_t branches = 0;           // of those, the ones played out (an action besides the greedy choice)
  std::int64_t branch_decisions = 0;   // decisions answered inside the play-outs (not stored)
  std::array<KindStats, kOpponentKinds> kinds{};
  double engine_seconds = 0;     // stepping tables, bots, sampling (summed over worker threads)
  double encode_seconds = 0;     // encoding observations into the batches (summed over workers)
  double inference_seconds = 0;  // the inference thread inside evaluate()
  double wait_seconds = 0;       // collect()'s thread blocked until a group's batch was evaluated
  double wall_seconds = 0;       // inside collect()

  KindStats total() const;  // all kinds together
  ActorStats& operator+=(const ActorStats& o);
  nlohmann::ordered_json to_json() const;
};

}  // namespace hydra::selfplay
