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
#include "hydra/common/config_io.hpp"
#include "hydra/pretrain/run.hpp"

namespace hydra::apps {
namespace {

struct GrpFlags {
  std::string config;
  std::vector<std::string> data;
  std::vector<std::string> sets;
  std::optional<std::int64_t> max_steps;
  std::optional<double> max_minutes;
  std::optional<std::uint64_t> seed;
  std::string device;
  std::string run_dir;
  bool resume = false;
  bool json = false;
};

void run(const GrpFlags& f) {
  std::optional<std::filesystem::path> file;
  if (!f.config.empty()) file = f.config;
  std::vector<std::string> sets = f.sets;
  if (f.max_steps) sets.push_back("train.max_updates=" + std::to_string(*f.max_steps));
  if (f.max_minutes) sets.push_back("train.max_minutes=" + std::to_string(*f.max_minutes));
  if (f.seed) sets.push_back("run.seed=" + std::to_string(*f.seed));
  if (!f.device.empty()) sets.push_back("run.device=" + f.device);
  config::Config cfg = load_run_config(file, sets);
  if (!f.data.empty()) cfg.pretrain.data = f.data;
  if (!f.run_dir.empty()) cfg.run.dir = f.run_dir;
  pretrain::RunOptions o;
  o.resume = f.resume;
  const auto s = pretrain::run_grp(cfg, o);
  if (f.json) {
    std::cout << s.report.dump(2) << "\n";
    return;
  }
  std::cout << "grp: step " << s.steps << (s.stopped ? " (stopped)" : "") << ", checkpoint " << s.checkpoint.string() << "\n";
}

}  // namespace

void register_grp(CLI::App& app) {
  auto* cmd = app.add_subcommand("grp", "Train the GRP rank predictor from logs (docs/PRETRAIN.md)");
  auto f = std::make_shared<GrpFlags>();
  cmd->add_option("--config,-c", f->config, "JSON config file (configs/grp.json)");
  cmd->add_option("--data", f->data, "log folders or files (replace pretrain.data)");
  cmd->add_option("--set", f->sets, "override a config key (repeatable)");
  cmd->add_option("--max-steps", f->max_steps, "optimizer steps (replaces train.max_updates)");
  cmd->add_option("--max-minutes", f->max_minutes, "wall-clock limit (replaces train.max_minutes)");
  cmd->add_option("--seed", f->seed, "master seed (replaces run.seed)");
  cmd->add_option("--device", f->device, "auto, cpu or cuda (replaces run.device)");
  cmd->add_option("--run-dir", f->run_dir, "run directory (replaces run.dir)");
  cmd->add_flag("--resume", f->resume, "continue from the newest good checkpoint in the run directory");
  cmd->add_flag("--json", f->json, "print the report as JSON on stdout");
  cmd->callback([f] { run(*f); });
}

}  // namespace hydra::apps
