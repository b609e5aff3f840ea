#pragma once

// Range checks for numeric flags, run on the text before CLI11 converts it. CLI11's own Range
// lets NaN through (every comparison with NaN is false) and its unsigned conversion turns "-1"
// into 2^64-1; these refuse both. A refused value is a usage error (exit status 2, main.cpp).

#include <cstdint>

#include <CLI/CLI.hpp>

namespace hydra::apps {

// A decimal integer from lo to hi.
CLI::Validator integer_in(std::int64_t lo, std::int64_t hi);
// A finite decimal number from lo (excluded when lo_open) to hi.
CLI::Validator number_in(double lo, double hi, bool lo_open = false);
// A master seed: a decimal integer from 0 to 2^64-1.
CLI::Validator seed_value();

// Upper bounds shared by several commands (--threads: kMaxThreads, common/thread_limit.hpp).
inline constexpr std::int64_t kMaxGames = 10'000'000;  // selfplay games, eval wall seeds: hours of play
inline constexpr double kMaxTemperature = 100.0;

// What --rules names, wherever it is taken: a preset of configs/rules/ (docs/RULES.md) or a file.
inline constexpr const char* kRulesHelp =
    "rules preset (tenhou, tenhou-tonpuusen, tenhou-2009, tenhou-2009-tonpuusen, tenhou-kyoku, mahjongsoul; +no-red, "
    "+no-kuitan) or a rules JSON file";

}  // namespace hydra::apps
