// hydra check [--device D] [--config FILE] [--set K=V] [--model CKPT] [--data DIR]
//             [--positions N] [--seed S] [--threads T] [--json]
// A numerical self-test of a device on real positions through the code paths training uses
// (apps/torch/check_report.cpp runs the checks of ppo/device_check.hpp and prints them; docs/GPU.md how
// to read them).
// Exit 0 when every check passes, 1 when one fails.

#include <memory>

#include "commands.hpp"
#include "flag_checks.hpp"
#include "torch_side.hpp"

namespace hydra::apps {

void register_check(CLI::App& app) {
  auto* cmd = app.add_subcommand("check", "Numerical self-test of a device: bf16 vs fp32, batching, one update, checkpoints");
  auto f = std::make_shared<CheckFlags>();
  f->model.add_to(*cmd);
  cmd->add_option("--model", f->checkpoint, "check this hydra_net checkpoint's network (its stored model config)");
  cmd->add_option("--data", f->data,
                  "game logs (a file or folder) for the positions; default: $HYDRA_TESTDATA/mjai, else greedy self-play");
  cmd->add_option("--positions", f->positions, "positions to evaluate")->check(integer_in(2, 100000))->capture_default_str();
  cmd->callback([f] { torch_side::load().check(*f); });
}

}  // namespace hydra::apps
