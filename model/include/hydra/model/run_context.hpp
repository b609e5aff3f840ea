#pragma once

// The setup that every command running the network shares (docs/ARCHITECTURE.md "Run setup"):
// the thread caps of LibTorch's intra-op pool and of oneTBB, the device, and for the commands
// that own a run directory (train, pretrain, grp) what a killed session left in it.
//
//   const model::RunContext context(cfg.run.threads, cfg.run.device);
//   context.own_run_dir(dir);        // train, pretrain, grp
//   ... context.device() ...

#include <filesystem>
#include <string>

#include <c10/core/Device.h>

#include "hydra/common/thread_limit.hpp"

namespace hydra::model {

// Caps LibTorch's intra-op threads at `threads`; 0 leaves LibTorch's default. LibTorch's setting
// is process-wide and outlives the call.
void limit_torch_threads(int threads);

class RunContext {
 public:
  // threads: run.threads or --threads (0: the libraries' defaults); device: "cpu", "cuda",
  // "cuda:N" or "auto" (runtime.hpp's resolve_device, whose errors name the device).
  RunContext(int threads, const std::string& device);

  const c10::Device& device() const { return device_; }

  // Creates RUN_DIR/checkpoints and removes what a session killed mid-write left: temporary
  // files in RUN_DIR and RUN_DIR/checkpoints, checkpoint sidecars without their checkpoint
  // (common/atomic_file.hpp). A run owns its directory, so nothing else in it is touched.
  void own_run_dir(const std::filesystem::path& root) const;

 private:
  ThreadLimit tbb_;
  c10::Device device_;
};

}  // namespace hydra::model
