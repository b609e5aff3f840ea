#include "model_flags.hpp"

#include <filesystem>
#include <optional>

#include "command_threads.hpp"
#include "commands.hpp"
#include "flag_checks.hpp"

namespace hydra::apps {

void ModelFlags::add_to(CLI::App& cmd) {
  cmd.add_option("--config,-c", config,
                 "run config whose model (and self-play, PPO sections) to use; default: the built-in defaults "
                 "with the quickstart model (4 blocks x 64 channels)");
  cmd.add_option("--set", sets, "override a config key: --set model.blocks=8 (repeatable)");
  cmd.add_option("--device", device, "cpu, cuda, cuda:N or auto")->capture_default_str();
  cmd.add_option("--seed", seed, "master seed: network init, positions and games")->check(seed_value())->capture_default_str();
  add_threads_flag(cmd, threads,
                   "CPU threads for torch and the game workers (0 = all; 1 keeps a shared machine's other work from "
                   "stalling torch's spinning threads)");
  cmd.add_flag("--json", json, "machine-readable output");
}

config::Config ModelFlags::load() const {
  std::optional<std::filesystem::path> file;
  std::vector<std::string> all;
  if (config.empty()) {
    // configs/quickstart.json's model, without needing the file beside the binary.
    all = {"model.blocks=4", "model.channels=64"};
  } else {
    file = config;
  }
  all.insert(all.end(), sets.begin(), sets.end());
  return load_run_config(file, all);
}

}  // namespace hydra::apps
