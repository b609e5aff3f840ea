#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "hydra/common/config.hpp"

namespace hydra::game {
struct TableRules;
}  // namespace hydra::game

namespace hydra::apps {

// Each adds one subcommand to the hydra app. The callbacks throw hydra::Error for user errors;
// main() turns them into one line on stderr and exit code 1.

// Loads a run config (config::load: the file, then `sets` in order), checks what common/ cannot
// (rules.preset names a preset or a readable rules file), and applies its run.log_level unless
// the global --log-level flag was given (the flag wins, as the more specific request). Errors
// come before anything is written.
config::Config load_run_config(const std::optional<std::filesystem::path>& file, const std::vector<std::string>& sets);

// The flags the run commands share (train, pretrain, grp). Those that name a config key become
// --set overrides applied after the file and the user's --set, so the config's checks name them.
struct RunFlags {
  std::string config;
  std::vector<std::string> sets;
  std::optional<std::int64_t> max_updates;  // train.max_updates (--max-updates or --max-steps)
  std::optional<double> max_minutes;        // train.max_minutes
  std::optional<std::uint64_t> seed;        // run.seed
  std::string device;                       // run.device
  std::string run_dir;                      // the run directory (default: run.dir of the config)
  bool resume = false;

  // Adds the shared options to `cmd`; the update limit is named `max_updates_flag`.
  void add_to(CLI::App& cmd, const std::string& max_updates_flag, const std::string& max_updates_help);
  // Defaults, then --config, then --set, then these flags (load_run_config).
  config::Config load() const;
};

void register_info(CLI::App& app);
void register_config(CLI::App& app);
void register_replay(CLI::App& app);
void register_selfplay(CLI::App& app);
void register_hand(CLI::App& app);
void register_bench(CLI::App& app);
void register_bench_play(CLI::App& bench);  // `bench engine` and `bench encoder`, under register_bench
void register_bench_device(CLI::App& bench);  // `bench model`, `learner`, `selfplay`, `pretrain` (cmd_bench_device.cpp)
void register_check(CLI::App& app);
void register_export(CLI::App& app);
void register_merge(CLI::App& app);
void register_eval(CLI::App& app);
void register_bot(CLI::App& app);
void register_convert(CLI::App& app);
void register_train(CLI::App& app);
void register_pretrain(CLI::App& app);
void register_grp(CLI::App& app);
void register_review(CLI::App& app);

}  // namespace hydra::apps
