#pragma once

// The LibTorch half of the hydra commands (docs/ARCHITECTURE.md "LibTorch on demand").
//
// Two executables are linked from the same command sources: `hydra`, which users run, links no
// LibTorch, and `hydra-torch` beside it links everything. The commands reach the LibTorch half
// through torch_side::load(): in hydra-torch the table of apps/torch/, in hydra a re-execution
// of hydra-torch with the same arguments and LibTorch on its library path (apps/torch_side.cpp,
// torch_locate.hpp). So a command that needs the network costs LibTorch's
// start, and every other command starts without it; all flags stay registered in both, so
// `--help` and flag errors need no LibTorch.

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "model_flags.hpp"
#include "hydra/selfplay/model_agent.hpp"

namespace hydra::apps {

struct TrainFlags {
  RunFlags run;
  int nproc = 1;  // --nproc: local ranks started by this command (local_ranks.hpp)
  bool game_logs = false;
  std::int64_t stop_at = 0;  // --stop-at: stop at this update, schedules unchanged
};

struct PretrainFlags {
  RunFlags run;
  int nproc = 1;  // --nproc: local ranks started by this command (local_ranks.hpp)
  std::vector<std::string> data;
  bool eval_only = false;
  std::string model;
  bool json = false;
  std::int64_t max_samples = 0;
  int batch = 256;
  bool no_greedy = false;
  std::string init;     // --init: the checkpoint whose weights start the run (fine-tuning)
  std::string against;  // --against (--eval-only): another network compared on the same decisions
};

// hydra merge (cmd_merge.cpp; docs/CHECKPOINTS.md "Merging networks").
struct MergeFlags {
  std::vector<std::string> inputs;
  std::string base;
  double scale = 1.0;
  std::string out;
  bool json = false;
};

struct GrpFlags {
  RunFlags run;
  std::vector<std::string> data;
  bool json = false;
};

// hydra check (cmd_check.cpp; docs/GPU.md).
struct CheckFlags {
  ModelFlags model;
  std::string checkpoint;  // --model: a hydra_net checkpoint's network instead of the config's
  std::string data;        // --data: logs for the positions
  int positions = 128;
};

// hydra bench model | learner | selfplay | pretrain (cmd_bench_device.cpp; docs/GPU.md, docs/PRETRAIN.md).
struct BenchModelFlags {
  ModelFlags model;
  std::vector<int> batch_sizes;  // empty: 1,16,64,256,1024 on CUDA, up to 256 on the CPU
  double seconds = 1.0;          // per batch size
};
struct BenchLearnerFlags {
  ModelFlags model;
  std::int64_t samples = 0;  // rollout size; 0: two minibatches, at most ppo.rollout_samples
  double seconds = 5.0;
  double peak_tflops = 0;    // 0: the known peak of the device, if any
  std::string profile;       // non-empty: profile one more update, its Chrome trace to this file
  double played_share = 1.0;  // expected policy gradient: the share of decisions with play-outs
};
struct BenchSelfplayFlags {
  ModelFlags model;
  double seconds = 10.0;
};
struct BenchPretrainFlags {
  ModelFlags model;
  std::vector<std::string> data;  // --data: replaces pretrain.data
  double seconds = 10.0;          // per phase
};

namespace torch_side {

// The LibTorch half of the commands: one entry per function, filled in apps/torch/commands.cpp.
struct Commands {
  void (*train)(const TrainFlags& f);
  void (*pretrain)(const PretrainFlags& f);
  void (*grp)(const GrpFlags& f);
  void (*export_weights)(const std::string& checkpoint, const std::string& out);
  void (*merge_weights)(const MergeFlags& f);
  // hydra info --model CONFIG.
  void (*info_model)(const std::string& config_file, bool json);
  // The keys hydra info adds from the loaded LibTorch (CUDA and cuDNN availability, devices).
  void (*runtime_info)(nlohmann::ordered_json& j);
  // The loader of checkpoint agents (selfplay::checkpoint_policy), a selfplay::PolicyLoader.
  std::shared_ptr<selfplay::BatchPolicy> (*policy_loader)(const std::string& path, const std::string& device,
                                                          bool cpu_bf16);
  // The loader of a search agent's GRP (selfplay::GrpRewardModel), a selfplay::RewardLoader.
  std::shared_ptr<selfplay::KyokuRewardModel> (*reward_loader)(const std::string& path);
  // Caps LibTorch's intra-op threads (model::limit_torch_threads); commands call it through
  // CommandThreads (command_threads.hpp).
  void (*limit_torch_threads)(int threads);
  // Throws hydra::Error naming the failed checks after printing every result.
  void (*check)(const CheckFlags& f);
  void (*bench_model)(const BenchModelFlags& f);
  void (*bench_learner)(const BenchLearnerFlags& f);
  void (*bench_selfplay)(const BenchSelfplayFlags& f);
  void (*bench_pretrain)(const BenchPretrainFlags& f);
};

// The table in hydra-torch; null in hydra. The one function with a definition in each
// executable: apps/torch/commands.cpp and apps/torch_exec.cpp.
const Commands* linked_commands();

// Whether this executable holds the LibTorch half (hydra-torch).
inline bool linked() { return linked_commands() != nullptr; }

// The LibTorch half. In hydra it re-executes hydra-torch with this process's arguments and the
// located LibTorch first on its library path, and does not return; a LibTorch that cannot be
// found or does not match is a hydra::Error, one line. Commands call it before they write
// anything.
const Commands& load();

// load() for a command that needs LibTorch later (a checkpoint agent): called before any output.
inline void require() { (void)load(); }

}  // namespace torch_side

// Saves main()'s arguments for torch_side::load().
void set_command_line(int argc, char** argv);

}  // namespace hydra::apps
