#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace hydra::apps {

// Each adds one subcommand to the hydra app. The callbacks throw hydra::Error for user errors;
// main() turns them into one line on stderr and exit code 1.
// Applies a run config's run.log_level unless the global --log-level flag was given (the flag
// wins, as the more specific request).
void apply_config_log_level(const std::string& level);

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
