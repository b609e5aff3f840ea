#pragma once

// The `hydra train` loop (docs/PPO.md; docs/TRAINING.md): self-play actors and the PPO learner
// in one process.
//
//   loop: rollout = actors.collect(ppo.rollout_samples)      whole games
//         stats   = learner.update(rollout)
//         every selfplay.refresh_every: publish the learner's weights to the actors' snapshot
//         every selfplay.pool_every:    add a snapshot to the opponent pool
//         every train.log_every:        a progress line and a metrics record
//         every train.checkpoint_every: a checkpoint (also on a stop request and at the end)
//
// A checkpoint holds everything the loop depends on (learner, optimizer, schedule, reward
// statistics, actor state, the actors' snapshot and pool weights, torch's generators), so a
// resumed run computes the same losses as an uninterrupted one.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "hydra/common/config.hpp"
#include "hydra/common/metrics.hpp"
#include "hydra/model/distributed.hpp"

namespace hydra {
class StopSignal;
}

namespace hydra::ppo {

struct TrainOptions {
  bool resume = false;
  // Run directory; empty: config run.dir.
  std::filesystem::path run_dir;
  // Polled after every update: a stop request saves a checkpoint and returns. May be null.
  const StopSignal* stop = nullptr;
  bool log_file = true;       // append the log to RUN_DIR/train.log (tests turn it off)
  bool progress = true;       // progress lines on the log at info level
  bool write_game_logs = false;  // every game as RUN_DIR/games/game_<index>.json.gz (mjai)
  // Stop (with a checkpoint) once the run is at this update; 0 = no such stop. Unlike
  // train.max_updates it leaves the schedules alone (their length stays train.max_updates), so a
  // run stopped at update N is the first N updates of the full run, whatever the machine's speed.
  std::int64_t stop_at = 0;
  // This process's place in a data-parallel run (docs/DISTRIBUTED.md); the default is one process.
  // With several ranks every rank constructs a Trainer: rank 0 writes the run directory.
  model::DistEnv ranks;
  // Called after every update with its step (learner updates done) and every scalar recorded
  // for it (losses, rates, ranks), logged or not. Tests compare these across runs.
  std::function<void(std::int64_t step, const metrics::Scalars& scalars)> on_update;
};

struct TrainResult {
  std::int64_t start_step = 0;  // learner updates done when this session began
  std::int64_t step = 0;        // learner updates done when it ended
  std::string stop_reason;      // "max_updates", "stop_at", "max_minutes", "signal"
  std::filesystem::path last_checkpoint;
  std::filesystem::path run_dir;
  std::uint64_t seed = 0;
};

class Trainer {
 public:
  // Prepares the run directory (trainer_run.hpp), builds learner, snapshots and actors, and on
  // resume loads the latest checkpoint into them. Throws hydra::Error for user errors.
  Trainer(config::Config config, TrainOptions options);
  ~Trainer();
  Trainer(const Trainer&) = delete;
  Trainer& operator=(const Trainer&) = delete;

  // Trains until train.max_updates, train.max_minutes or a stop request.
  TrainResult run();

  const config::Config& config() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hydra::ppo
