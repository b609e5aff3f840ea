// hydra train --config FILE [--set k=v]... [--resume] [--max-updates N] [--max-minutes M] [--stop-at N]
//              [--run-dir DIR] [--seed S] [--device cpu|cuda|auto] [--game-logs]
// Self-play PPO training (docs/TRAINING.md): actors and learner in this process, the run
// directory, checkpoints and metrics. Ctrl-C (or SIGTERM) saves a checkpoint after the current
// update and exits 0; a second one kills the process.

#include <memory>

#include "commands.hpp"
#include "flag_checks.hpp"
#include "torch_side.hpp"

namespace hydra::apps {

void register_train(CLI::App& app) {
  auto f = std::make_shared<TrainFlags>();
  CLI::App* cmd = app.add_subcommand("train", "Self-play PPO training (hydra train --config FILE)");
  f->run.add_to(*cmd, "--max-updates", "total learner updates of the run");
  cmd->add_option("--stop-at", f->stop_at,
                  "stop (with a checkpoint) at this update without shortening the schedules of train.max_updates: "
                  "the first N updates of the full run")
      ->check(integer_in(1, 1000000000000));
  cmd->add_flag("--game-logs", f->game_logs, "write every self-play game as RUN_DIR/games/game_<index>.json.gz");
  cmd->callback([f] { torch_side::load().train(*f); });
}

}  // namespace hydra::apps
