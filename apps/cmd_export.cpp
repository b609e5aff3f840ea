// hydra export CKPT --out FILE.pt: a checkpoint's weights as a state dict for Python PyTorch.

#include <memory>
#include <string>

#include "commands.hpp"
#include "torch_side.hpp"

namespace hydra::apps {

void register_export(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "export", "Write a checkpoint's weights as a state dict that Python reads with torch.load(weights_only=True)");
  auto checkpoint = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  cmd->add_option("CKPT", *checkpoint, "checkpoint file, or a checkpoint directory (its newest good checkpoint)")
      ->required();
  cmd->add_option("--out", *out, "output file (.pt)")->required();
  cmd->callback([checkpoint, out] { torch_side::load().export_weights(*checkpoint, *out); });
}

}  // namespace hydra::apps
