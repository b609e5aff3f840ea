// RunFlags: the options train, pretrain and grp share, and how they become config overrides.

#include <string>
#include <vector>

#include "commands.hpp"
#include "flag_checks.hpp"

namespace hydra::apps {

void RunFlags::add_to(CLI::App& cmd, const std::string& max_updates_flag, const std::string& max_updates_help) {
  cmd.add_option("--config,-c", config, "JSON config file (comments allowed); defaults when absent");
  cmd.add_option("--set", sets, "override a config key: --set ppo.lr=3e-4 (repeatable)");
  cmd.add_option(max_updates_flag, max_updates, max_updates_help + " (train.max_updates)")->check(integer_in(1, 1000000000000));
  cmd.add_option("--max-minutes", max_minutes, "stop (with a checkpoint) after this many minutes (train.max_minutes)")
      ->check(number_in(0.0, 1e9));
  cmd.add_option("--seed", seed, "master seed (run.seed; random and logged when absent)")->check(seed_value());
  cmd.add_option("--device", device, "cpu, cuda or auto (run.device)")->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  cmd.add_option("--run-dir", run_dir, "run directory (default: run.dir of the config)");
  cmd.add_flag("--resume", resume, "continue the run in the run directory from its newest good checkpoint");
}

config::Config RunFlags::load() const {
  std::optional<std::filesystem::path> file;
  if (!config.empty()) file = config;
  std::vector<std::string> all = sets;
  if (max_updates) all.push_back("train.max_updates=" + std::to_string(*max_updates));
  if (max_minutes) all.push_back("train.max_minutes=" + std::to_string(*max_minutes));
  if (seed) all.push_back("run.seed=" + std::to_string(*seed));
  if (!device.empty()) all.push_back("run.device=" + device);
  return load_run_config(file, all);
}

}  // namespace hydra::apps
