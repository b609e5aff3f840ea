// hydra train --config FILE [--set k=v]... [--resume] [--max-updates N] [--max-minutes M] [--stop-at N]
//              [--run-dir DIR] [--seed S] [--device cpu|cuda|auto] [--game-logs] [--nproc N]
// Self-play PPO training (docs/TRAINING.md): actors and learner in this process, the run
// directory, checkpoints and metrics. Ctrl-C (or SIGTERM) saves a checkpoint after the current
// update and exits 0; a second one kills the process. Data-parallel ranks (docs/DISTRIBUTED.md):
// started by torchrun or srun (their RANK, WORLD_SIZE, ... variables), or --nproc N local ones.

#include <memory>

#include "commands.hpp"
#include "flag_checks.hpp"
#include "hydra/common/error.hpp"
#include "local_ranks.hpp"
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
  cmd->add_option("--nproc", f->nproc,
                  "data-parallel ranks to start on this machine, as torchrun --nproc-per-node N would (docs/DISTRIBUTED.md)")
      ->check(integer_in(1, 1024));
  cmd->callback([f] {
    if (f->nproc > 1) {
      const int rc = run_local_ranks(f->nproc);
      if (rc != 0) throw Error("train: " + std::to_string(f->nproc) + " local ranks: a rank failed (above)");
      return;
    }
    torch_side::load().train(*f);
  });
}

}  // namespace hydra::apps
