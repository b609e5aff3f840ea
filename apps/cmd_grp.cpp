// hydra grp --config FILE [--data DIR...] [--max-steps N] [--run-dir DIR] [--resume]
//           [--max-minutes M] [--seed S] [--device D] [--set k=v]...
// Trains the GRP rank predictor on the kyoku sequences of logged games (docs/PRETRAIN.md); the
// checkpoint (kind "grp") is what selfplay.grp names for the self-play rewards.

#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/pretrain/run.hpp"

namespace hydra::apps {
namespace {

struct GrpFlags {
  RunFlags run;
  std::vector<std::string> data;
  bool json = false;
};

void run(const GrpFlags& f) {
  config::Config cfg = f.run.load();
  if (!f.data.empty()) cfg.pretrain.data = f.data;
  if (!f.run.run_dir.empty()) cfg.run.dir = f.run.run_dir;
  pretrain::RunOptions o;
  o.resume = f.run.resume;
  const auto s = pretrain::run_grp(cfg, o);
  if (f.json) {
    std::cout << json::dump(s.report, 2) << "\n";
    return;
  }
  std::cout << "grp: step " << s.steps << (s.stopped ? " (stopped)" : "") << ", checkpoint " << s.checkpoint.string() << "\n";
}

}  // namespace

void register_grp(CLI::App& app) {
  auto* cmd = app.add_subcommand("grp", "Train the GRP rank predictor from logs (docs/PRETRAIN.md)");
  auto f = std::make_shared<GrpFlags>();
  f->run.add_to(*cmd, "--max-steps", "optimizer steps");
  cmd->add_option("--data", f->data, "log folders or files (replace pretrain.data)");
  cmd->add_flag("--json", f->json, "print the report as JSON on stdout");
  cmd->callback([f] { run(*f); });
}

}  // namespace hydra::apps
