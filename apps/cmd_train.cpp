// hydra train --config FILE [--set k=v]... [--resume] [--max-updates N] [--max-minutes M]
//              [--run-dir DIR] [--seed S] [--device cpu|cuda|auto] [--game-logs]
// Self-play PPO training (docs/TRAINING.md): actors and learner in this process, the run
// directory, checkpoints and metrics. Ctrl-C (or SIGTERM) saves a checkpoint after the current
// update and exits 0; a second one kills the process.

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/stop.hpp"
#include "hydra/ppo/trainer.hpp"

namespace hydra::apps {
namespace {

struct TrainFlags {
  RunFlags run;
  bool game_logs = false;
};

void run_train(const TrainFlags& f) {
  config::Config cfg = f.run.load();
  StopSignal stop;
  ppo::TrainOptions opt;
  opt.resume = f.run.resume;
  opt.run_dir = f.run.run_dir;
  opt.stop = &stop;
  opt.write_game_logs = f.game_logs;
  ppo::Trainer trainer(std::move(cfg), std::move(opt));
  const ppo::TrainResult r = trainer.run();
  std::cout << "train: " << r.run_dir.string() << ": update " << r.step << " of "
            << trainer.config().train.max_updates << " (" << r.stop_reason << ")";
  if (!r.last_checkpoint.empty()) std::cout << ", checkpoint " << r.last_checkpoint.string();
  std::cout << "\n";
  if (r.stop_reason == "signal")
    std::cout << "train: stopped by a signal; continue with: hydra train --config ... --resume\n";
}

}  // namespace

void register_train(CLI::App& app) {
  auto f = std::make_shared<TrainFlags>();
  CLI::App* cmd = app.add_subcommand("train", "Self-play PPO training (hydra train --config FILE)");
  f->run.add_to(*cmd, "--max-updates", "total learner updates of the run");
  cmd->add_flag("--game-logs", f->game_logs, "write every self-play game as RUN_DIR/games/game_<index>.json.gz");
  cmd->callback([f] { run_train(*f); });
}

}  // namespace hydra::apps
