#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "hydra/common/config.hpp"

namespace hydra::apps {

// Each adds one subcommand to the hydra app. The callbacks throw hydra::Error for user errors;
// main() turns them into one line on stderr and exit code 1.

// Loads a run config (config::load: the file, then `sets` in order), checks what common/ cannot
// (rules.preset names a preset or a readable rules file), and applies its run.log_level unless
// the global --log-level flag was given (the flag wins, as the more specific request). Errors
// come before anything is written.
config::Config load_run_config(const std::optional<std::filesystem::path>& file, const std::vector<std::string>& sets);

void register_info(CLI::App& app);
void register_config(CLI::App& app);
void register_replay(CLI::App& app);
void register_selfplay(CLI::App& app);
void register_hand(CLI::App& app);
void register_bench(CLI::App& app);
void register_bench_play(CLI::App& bench);  // `bench engine` and `bench encoder`, under register_bench
void register_export(CLI::App& app);
void register_eval(CLI::App& app);
void register_bot(CLI::App& app);
void register_convert(CLI::App& app);
void register_train(CLI::App& app);
void register_pretrain(CLI::App& app);
void register_grp(CLI::App& app);

}  // namespace hydra::apps
