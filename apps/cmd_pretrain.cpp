// hydra pretrain --config FILE [--data DIR...] [--max-steps N] [--run-dir DIR] [--resume]
//                [--max-minutes M] [--seed S] [--device D] [--set k=v]...
//   behaviour cloning from logs (docs/PRETRAIN.md); flags are overrides applied after --set.
//   Ctrl-C (or SIGTERM) saves a checkpoint after the current step and exits 0.
// hydra pretrain --eval-only --model CKPT --data DIR... [--json] [--max-samples N]
//   the validation metrics of a checkpoint (and the greedy bot's agreement) on any logs.

#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "flag_checks.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/pretrain/run.hpp"

namespace hydra::apps {
namespace {

struct PretrainFlags {
  RunFlags run;
  std::vector<std::string> data;
  bool eval_only = false;
  std::string model;
  bool json = false;
  std::int64_t max_samples = 0;
  int batch = 256;
  bool no_greedy = false;
};

void print_summary(const char* what, const pretrain::RunSummary& s, bool json) {
  if (json) {
    std::cout << json::dump(s.report, 2) << "\n";
    return;
  }
  std::cout << what << ": step " << s.steps << (s.stopped ? " (stopped)" : "") << ", checkpoint "
            << s.checkpoint.string() << "\n";
  if (s.stopped) std::cout << what << ": continue with the same flags and --resume\n";
}

void run(const PretrainFlags& f) {
  if (f.eval_only) {
    if (f.model.empty()) throw Error("pretrain --eval-only needs --model CKPT");
    if (f.data.empty()) throw Error("pretrain --eval-only needs --data DIR");
    pretrain::EvalOptions o;
    o.model = f.model;
    o.data = f.data;
    o.max_samples = f.max_samples;
    o.batch = f.batch;
    o.device = f.run.device.empty() ? "auto" : f.run.device;
    o.greedy = !f.no_greedy;
    const auto report = pretrain::eval_pretrain(o);
    if (f.json) std::cout << json::dump(report, 2) << "\n";
    return;
  }
  config::Config cfg = f.run.load();
  if (!f.data.empty()) cfg.pretrain.data = f.data;
  if (!f.run.run_dir.empty()) cfg.run.dir = f.run.run_dir;
  pretrain::RunOptions o;
  o.resume = f.run.resume;
  print_summary("pretrain", pretrain::run_pretrain(cfg, o), f.json);
}

}  // namespace

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
  cmd->callback([f] { run(*f); });
}

}  // namespace hydra::apps
