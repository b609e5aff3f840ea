// `hydra pretrain`: being implemented (docs/ARCHITECTURE.md); the subcommand exists so the
// command list is stable while the library lands.

#include "commands.hpp"
#include "hydra/common/error.hpp"

namespace hydra::apps {

void register_pretrain(CLI::App& app) {
  auto* cmd = app.add_subcommand("pretrain", "Behaviour cloning from mjai / Tenhou logs");
  cmd->allow_extras();
  cmd->callback([] { throw Error("hydra pretrain is not available in this build yet"); });
}

}  // namespace hydra::apps
