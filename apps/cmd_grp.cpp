// hydra grp --config FILE [--data DIR...] [--max-steps N] [--run-dir DIR] [--resume]
//           [--max-minutes M] [--seed S] [--device D] [--set k=v]...
// Trains the GRP rank predictor on the kyoku sequences of logged games (docs/PRETRAIN.md); the
// checkpoint (kind "grp") is what selfplay.grp names for the self-play rewards.

#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "torch_side.hpp"

namespace hydra::apps {

void register_grp(CLI::App& app) {
  auto* cmd = app.add_subcommand("grp", "Train the GRP rank predictor from logs (docs/PRETRAIN.md)");
  auto f = std::make_shared<GrpFlags>();
  f->run.add_to(*cmd, "--max-steps", "optimizer steps");
  cmd->add_option("--data", f->data, "log folders or files (replace pretrain.data)");
  cmd->add_flag("--json", f->json, "print the report as JSON on stdout");
  cmd->callback([f] { torch_side::load().grp(*f); });
}

}  // namespace hydra::apps
