#pragma once

// The thread cap of oneTBB, the library behind hydra::parallel_for (parallel.hpp) and the play
// engine's loops. Commands take their cap from here, through model::RunContext where LibTorch
// runs too (model/run_context.hpp; docs/ARCHITECTURE.md "Run setup").

#include <memory>

namespace hydra {

// The most threads a run may ask for, as run.threads in a config or --threads on a command line:
// one bound for both ways in.
inline constexpr int kMaxThreads = 4096;

// Caps oneTBB's worker threads at `threads` while it lives; 0 leaves oneTBB's default, one per
// core.
class ThreadLimit {
 public:
  explicit ThreadLimit(int threads);
  ~ThreadLimit();
  ThreadLimit(const ThreadLimit&) = delete;
  ThreadLimit& operator=(const ThreadLimit&) = delete;

  // The cap in force now: the smallest live limit, else the number of hardware threads.
  static int active();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hydra
