#pragma once

// The one way a command applies a thread count (docs/ARCHITECTURE.md "Run setup"): oneTBB's
// workers (the play engine's loops) are capped while a CommandThreads lives, and in hydra-torch
// LibTorch's intra-op threads too (model::limit_torch_threads through torch_side.hpp; LibTorch's
// setting is process-wide). 0 leaves both libraries' defaults, one thread per core.
//
// The lock-step engine (eval, selfplay) evaluates one batch across all its games between steps,
// so the forward pass gets every core (measured 3.8x faster than one thread for quickstart
// checkpoints); a bot or a review page decides one position at a time and takes one thread:
// torch's intra-op threads only spin against the other seats' processes when a host runs several
// bots on one machine (40x slower measured on 2 cores, docs/EVAL.md). The commands that run in
// hydra-torch alone (train, pretrain, grp, check, bench) take the same two caps from
// model::RunContext.

#include <string>

#include <CLI/CLI.hpp>

#include "hydra/common/thread_limit.hpp"

namespace hydra::apps {

class CommandThreads {
 public:
  explicit CommandThreads(int threads);

 private:
  ThreadLimit tbb_;
};

// --threads on `cmd`: 0 (every core) to kMaxThreads, the bound run.threads has in a config.
CLI::Option* add_threads_flag(CLI::App& cmd, int& threads, const std::string& help);

}  // namespace hydra::apps
