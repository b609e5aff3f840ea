#pragma once

// The setup that every command running the network shares (docs/ARCHITECTURE.md "Run setup"):
// the thread caps of LibTorch's intra-op pool and of oneTBB, the device, for the commands that
// own a run directory (train, pretrain, grp) what a killed session left in it, and for a run of
// several ranks (docs/DISTRIBUTED.md) this rank's place and its process group.
//
//   model::RunContext context(cfg.run.threads, cfg.run.device);
//   context.own_run_dir(dir, "train");   // train, pretrain, grp: this process is the directory's one writer
//   ... context.device() ...
//   model::RunContext ranked(cfg.run.threads, cfg.run.device, model::DistEnv::from_environment(),
//                            {cfg.run.dist_backend, cfg.run.dist_timeout});   // hydra train

#include <filesystem>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <c10/core/Device.h>

#include "hydra/common/config.hpp"
#include "hydra/common/dir_lock.hpp"
#include "hydra/common/thread_limit.hpp"
#include "hydra/model/distributed.hpp"

namespace hydra::model {

// Caps LibTorch's intra-op threads at `threads`; 0 leaves LibTorch's default. LibTorch's setting
// is process-wide and outlives the call.
void limit_torch_threads(int threads);

class RunContext {
 public:
  // threads: run.threads or --threads (0: the libraries' defaults); device: "cpu", "cuda",
  // "cuda:N" or "auto" (runtime.hpp's resolve_device, whose errors name the device).
  RunContext(int threads, const std::string& device);

  // The backend and timeout of a run of several ranks (run.dist_backend, run.dist_timeout).
  struct Ranks {
    std::string backend = "auto";  // auto: nccl on cuda, gloo on cpu
    double timeout_s = 300;
  };
  // One rank of `env`: with a world of several ranks the process group forms here (every rank
  // must construct its context), and on cuda each local rank takes its own GPU (cuda:LOCAL_RANK).
  // `threads` 0 becomes the hardware threads divided among the machine's ranks (LOCAL_WORLD_SIZE).
  // A world of one makes no group.
  RunContext(int threads, const std::string& device, const DistEnv& env, const Ranks& ranks);
  ~RunContext();

  const c10::Device& device() const { return device_; }
  const DistEnv& env() const { return env_; }
  // The group of every rank; null in a world of one.
  ProcessGroup* group() const { return group_.get(); }
  // Whether this rank writes the run's files and logs (rank 0).
  bool writes() const { return env_.rank == 0; }

  // The ranks of one run train one config: rank 0's run.seed (0 where it has none) becomes every
  // rank's, written into `cfg`; any other difference of the effective config is a hydra::Error
  // naming `command` and the first rank that differs, and saying which flags (`alike`) every rank
  // must be given alike. A world of one changes nothing.
  void agree_on_config(config::Config& cfg, std::string_view command, std::string_view alike) const;
  // The seed each rank was given (--seed, run.seed; nullopt: none, to be drawn or read from a
  // checkpoint) must be rank 0's: a rank given another seed, or one where rank 0 has none or the
  // other way round, is a hydra::Error on every rank naming `command`, the first rank that differs
  // and both seeds, before any step (the ranks of one run share one seed; torchrun and --nproc
  // start every rank with the same command line). A world of one checks nothing.
  void agree_on_given_seed(std::optional<std::uint64_t> given, std::string_view command) const;
  // Why the ranks stop at this step: the first reason in rank order that is not empty (a signal
  // reaches one rank, each rank times its own session), so every rank stops at the same step for
  // the same reason. Empty: go on. A world of one: `mine`.
  std::string agree_on_stop(const std::string& mine) const;

  // Makes this process the one writer of RUN_DIR for the context's life (common/dir_lock.hpp):
  // a hydra::Error naming `command` and the live process that holds it, if one does, before
  // anything is written; a directory whose writer was killed is taken over. Then creates
  // RUN_DIR/checkpoints and removes what a session killed mid-write left: temporary files in
  // RUN_DIR and RUN_DIR/checkpoints, checkpoint sidecars without their checkpoint
  // (common/atomic_file.hpp). A run owns its directory, so nothing else in it is touched. Only
  // the rank that writes (writes()) owns the directory; calling it again for the same directory
  // only cleans.
  void own_run_dir(const std::filesystem::path& root, std::string_view command = "run");

 private:
  ThreadLimit tbb_;
  c10::Device device_;
  DistEnv env_;
  std::unique_ptr<ProcessGroup> group_;
  std::unique_ptr<DirLock> run_dir_lock_;
};

}  // namespace hydra::model
