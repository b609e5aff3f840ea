// hydra pretrain --config FILE [--data DIR...] [--max-steps N] [--run-dir DIR] [--resume]
//                [--max-minutes M] [--seed S] [--device D] [--set k=v]... [--nproc N] [--init CKPT]
//   behaviour cloning from logs (docs/PRETRAIN.md); flags are overrides applied after --set.
//   --init starts from a checkpoint's weights (fine-tuning, e.g. on a search's own games:
//   docs/PPO.md "Distilling the search").
//   Ctrl-C (or SIGTERM) saves a checkpoint after the current step and exits 0. Data-parallel
//   ranks (docs/DISTRIBUTED.md): started by torchrun or srun, or --nproc N local ones.
// hydra pretrain --eval-only --model CKPT --data DIR... [--against CKPT] [--json] [--max-samples N]
//   the validation metrics of a checkpoint (and the greedy bot's agreement) on any logs.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "flag_checks.hpp"
#include "hydra/common/error.hpp"
#include "local_ranks.hpp"
#include "torch_side.hpp"

namespace hydra::apps {

void register_pretrain(CLI::App& app) {
  auto* cmd = app.add_subcommand("pretrain", "Behaviour cloning from mjai / Tenhou logs (docs/PRETRAIN.md)");
  auto f = std::make_shared<PretrainFlags>();
  f->run.add_to(*cmd, "--max-steps", "optimizer steps");
  cmd->add_option("--data", f->data, "log folders, files or globs (replace pretrain.data)");
  cmd->add_flag("--eval-only", f->eval_only, "only evaluate --model on --data (no training, no split)");
  cmd->add_option("--model", f->model, "checkpoint to evaluate (--eval-only)");
  cmd->add_flag("--json", f->json, "print the report as JSON on stdout");
  cmd->add_option("--max-samples", f->max_samples, "--eval-only: evaluate at most N samples (0 = all)")->check(integer_in(0, std::int64_t{1} << 40));
  cmd->add_option("--batch", f->batch, "--eval-only: samples per forward pass")->check(integer_in(1, 65536))->capture_default_str();
  cmd->add_flag("--no-greedy", f->no_greedy, "--eval-only: skip the greedy bot's agreement");
  cmd->add_option("--against", f->against,
                  "--eval-only: compare --model with this network on the same decisions (on a search's logs: "
                  "the search's regret of each and --model's gain, paired by decision)");
  cmd->add_option("--init", f->init,
                  "start from this checkpoint's weights (same model.*; the optimizer and schedule start afresh; "
                  "--resume continues from the run's own checkpoint instead): fine-tuning, e.g. on a search's games")
      ->check(CLI::ExistingFile);
  cmd->add_option("--nproc", f->nproc,
                  "data-parallel ranks to start on this machine, as torchrun --nproc-per-node N would (docs/DISTRIBUTED.md)")
      ->check(integer_in(1, 1024));
  cmd->callback([f] {
    if (f->eval_only && !f->init.empty()) throw Error("pretrain --eval-only evaluates --model: leave out --init");
    if (!f->eval_only && !f->against.empty()) throw Error("pretrain --against compares networks in --eval-only");
    if (f->nproc > 1) {
      if (f->eval_only) throw Error("pretrain --eval-only runs in one process: leave out --nproc");
      const int rc = run_local_ranks(f->nproc);
      if (rc != 0) throw Error("pretrain: " + std::to_string(f->nproc) + " local ranks: a rank failed (above)");
      return;
    }
    torch_side::load().pretrain(*f);
  });
}

}  // namespace hydra::apps
