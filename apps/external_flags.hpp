#pragma once

// The flags of external mjai agents ("mjai:COMMAND", "mjai.app:COMMAND"; docs/EVAL.md
// "External agents") that `hydra eval` and `hydra selfplay` share.

#include <CLI/CLI.hpp>

#include "hydra/selfplay/external_agent.hpp"

namespace hydra::apps {

struct ExternalFlags {
  double reply_seconds = 2.0;
  double start_seconds = 10.0;
  std::string log_dir = "mjai-logs";
  bool process_per_game = false;

  void add_to(CLI::App& cmd);
  selfplay::ExternalOptions options() const;
};

}  // namespace hydra::apps
