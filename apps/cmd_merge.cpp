// hydra merge CKPT... --out FILE [--base CKPT --scale S]: one network from several of the same
// architecture, their mean or an extrapolation from their common start (docs/CHECKPOINTS.md
// "Merging networks").

#include <memory>

#include "commands.hpp"
#include "torch_side.hpp"

namespace hydra::apps {

void register_merge(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "merge", "Write a checkpoint whose weights are the mean of several networks', or base + scale x (mean - base)");
  auto f = std::make_shared<MergeFlags>();
  cmd->add_option("CKPT", f->inputs, "checkpoint files of one kind and architecture")->required()->check(CLI::ExistingFile);
  cmd->add_option("--out", f->out, "the checkpoint to write")->required();
  cmd->add_option("--base", f->base, "the network the inputs were trained from (needed for --scale)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--scale", f->scale, "with --base: base + scale x (mean of the inputs - base); 1 is their mean")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--json", f->json, "print the result as JSON");
  cmd->callback([f] { torch_side::load().merge_weights(*f); });
}

}  // namespace hydra::apps
