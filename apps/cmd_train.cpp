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
  std::string config;
  std::vector<std::string> sets;
  bool resume = false;
  std::optional<std::int64_t> max_updates;
  std::optional<double> max_minutes;
  std::string run_dir;
  std::optional<std::uint64_t> seed;
  std::string device;
  bool game_logs = false;
};

void run_train(const TrainFlags& f) {
  std::optional<std::filesystem::path> file;
  if (!f.config.empty()) file = f.config;
  // Flags are overrides like --set, applied last, so the same range checks name them.
  std::vector<std::string> sets = f.sets;
  if (f.max_updates) sets.push_back("train.max_updates=" + std::to_string(*f.max_updates));
  if (f.max_minutes) sets.push_back("train.max_minutes=" + std::to_string(*f.max_minutes));
  if (f.seed) sets.push_back("run.seed=" + std::to_string(*f.seed));
  if (!f.device.empty()) sets.push_back("run.device=" + f.device);
  config::Config cfg = load_run_config(file, sets);

  StopSignal stop;
  ppo::TrainOptions opt;
  opt.resume = f.resume;
  opt.run_dir = f.run_dir;
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
  cmd->add_option("--config,-c", f->config, "JSON config file (comments allowed); defaults when absent");
  cmd->add_option("--set", f->sets, "override a key: --set ppo.lr=3e-4 (repeatable)");
  cmd->add_flag("--resume", f->resume, "continue the run in the run directory from its latest checkpoint");
  cmd->add_option("--max-updates", f->max_updates, "total learner updates of the run (train.max_updates)");
  cmd->add_option("--max-minutes", f->max_minutes, "stop (with a checkpoint) after this many minutes (train.max_minutes)");
  cmd->add_option("--run-dir", f->run_dir, "run directory (default: run.dir of the config)");
  cmd->add_option("--seed", f->seed, "master seed (run.seed; random and logged when absent)");
  cmd->add_option("--device", f->device, "cpu, cuda or auto (run.device)")->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  cmd->add_flag("--game-logs", f->game_logs, "write every self-play game as RUN_DIR/games/game_<index>.json.gz");
  cmd->callback([f] { run_train(*f); });
}

}  // namespace hydra::apps
