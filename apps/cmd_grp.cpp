// `hydra grp`: being implemented (docs/ARCHITECTURE.md); the subcommand exists so the
// command list is stable while the library lands.

#include "commands.hpp"
#include "hydra/common/error.hpp"

namespace hydra::apps {

void register_grp(CLI::App& app) {
  auto* cmd = app.add_subcommand("grp", "Train the GRP rank predictor from logs");
  cmd->allow_extras();
  cmd->callback([] { throw Error("hydra grp is not available in this build yet"); });
}

}  // namespace hydra::apps
