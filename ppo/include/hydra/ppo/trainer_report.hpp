#pragma once

// What `hydra train` reports per update (docs/TRAINING.md "Metrics"): scalars from the actors'
// statistics next to the learner's, and the one-line progress summary. Torch-free.

#include <cstdint>
#include <string>

#include "hydra/common/metrics.hpp"
#include "hydra/selfplay/actors.hpp"

namespace hydra::ppo {

// Self-play scalars of one update, collected over `collect_seconds` (actors) and
// `update_seconds` (learner):
//   perf/games_per_s, perf/decisions_per_s, perf/samples_per_s (learner decisions per second of
//   the whole update, collection and learning), perf/collect_seconds, perf/inference_seconds,
//   selfplay/games, selfplay/kyoku, selfplay/decisions, selfplay/samples, selfplay/forced_share,
//   selfplay/forward_passes, play/win_rate, play/deal_in_rate, play/riichi_rate,
//   play/call_rate (learner seat-kyoku, every opponent kind), and per opponent kind K with games
//   this update: rank/vs_K (learner seats' average rank, 1-4), rank/vs_K_games, and for the
//   non-self kinds rank/vs_K_p1..p4 (rank distribution shares).
metrics::Scalars actor_scalars(const selfplay::ActorStats& stats, double collect_seconds, double update_seconds);

// The value of `tag` in `scalars`, or `fallback`.
double scalar_or(const metrics::Scalars& scalars, const std::string& tag, double fallback);

// "update 12/200 (6.0%) | 3.1 games/s 2140 dec/s 820 samples/s | pi -0.012 v 0.341 H 1.204
//  kl 0.0041 | rank vs baseline 2.31 pool 2.45 | ETA 5m10s", out of `last` updates (train.max_updates,
//  or --stop-at where that comes first)
std::string progress_line(std::int64_t step, std::int64_t last, const metrics::Scalars& scalars,
                          double eta_seconds);

// "45s", "1m48s", "2h03m"; "?" when negative or not finite.
std::string human_duration(double seconds);

}  // namespace hydra::ppo
