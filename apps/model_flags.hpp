#pragma once

// The flags `hydra check` and `hydra bench model|learner|selfplay` share: the model and run
// config they measure, the device, the seed and the CPU threads. Torch-free: the commands
// register and check them in `hydra`, and run in hydra-torch (torch_side.hpp).

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "hydra/common/config.hpp"

namespace hydra::apps {

struct ModelFlags {
  std::string config;              // --config FILE; empty: the defaults with the quickstart model
  std::vector<std::string> sets;   // --set KEY=VALUE
  std::string device = "auto";     // --device cpu|cuda|cuda:N|auto
  std::uint64_t seed = 1;          // --seed: network init, positions, games
  int threads = 0;                 // --threads: CPU threads for torch and the game workers (0 = all)
  bool json = false;

  void add_to(CLI::App& cmd);
  // The config: --config (or the defaults with the 4 x 64 quickstart model, so the commands run
  // from any folder), then --set. Errors name the file or flag.
  config::Config load() const;
};

}  // namespace hydra::apps
