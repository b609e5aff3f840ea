// `hydra train`: being implemented (docs/ARCHITECTURE.md); the subcommand exists so the
// command list is stable while the library lands.

#include "commands.hpp"
#include "hydra/common/error.hpp"

namespace hydra::apps {

void register_train(CLI::App& app) {
  auto* cmd = app.add_subcommand("train", "Self-play PPO training (hydra train --config FILE)");
  cmd->allow_extras();
  cmd->callback([] { throw Error("hydra train is not available in this build yet"); });
}

}  // namespace hydra::apps
