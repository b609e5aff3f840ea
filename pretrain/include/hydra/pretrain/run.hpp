#pragma once

// The run loops behind `hydra pretrain` and `hydra grp` (docs/PRETRAIN.md), laid out like
// `hydra train`: RUN_DIR/config.json (the effective config, seed included), RUN_DIR/<cmd>.log,
// RUN_DIR/metrics.jsonl and RUN_DIR/tb/ (TensorBoard), RUN_DIR/checkpoints/ (step-*.ckpt,
// `latest`, `best` by validation loss), RUN_DIR/report.json (the final validation and every bad
// input file). Ctrl-C (SIGINT/SIGTERM) finishes the step, saves a checkpoint and returns;
// --resume continues from the newest good checkpoint.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hydra/common/config.hpp"
#include "hydra/model/distributed.hpp"

namespace hydra::pretrain {

struct RunOptions {
  std::optional<std::int64_t> max_steps;  // overrides train.max_updates
  bool resume = false;                    // continue from RUN_DIR/checkpoints
  // Behaviour cloning only: a "hydra_net" checkpoint of the same model whose weights start the
  // run (fine-tuning; the optimizer and the schedule start afresh). Ignored with resume.
  std::filesystem::path init;
  // This process's place among data-parallel ranks (docs/DISTRIBUTED.md), as torchrun or
  // `--nproc` set it; the default is one process. Behaviour cloning only (not GRP).
  model::DistEnv ranks;
};

struct RunSummary {
  std::int64_t steps = 0;
  bool stopped = false;  // by a signal or train.max_minutes, before max_steps
  std::filesystem::path checkpoint;  // the last one written
  nlohmann::ordered_json report;     // what report.json holds
};

// Behaviour cloning (bc.hpp) from cfg.pretrain.data. As one of several ranks: the training files
// are sharded by file (each file once per pass, between the ranks), pretrain.batch is the batch
// of the union (each rank takes its share), every rank validates on the whole held-out split,
// and rank 0 writes the run directory.
RunSummary run_pretrain(config::Config cfg, const RunOptions& options);

// The GRP model (grp.hpp in model/) from cfg.pretrain.data; a checkpoint of kind "grp".
RunSummary run_grp(config::Config cfg, const RunOptions& options);

struct EvalOptions {
  std::filesystem::path model;  // a kind "hydra_net" checkpoint, or a run's checkpoint directory (its best, else latest)
  std::vector<std::string> data;
  std::int64_t max_samples = 0;  // 0 = every sample
  int batch = 256;
  std::string device = "auto";
  bool greedy = true;            // also the greedy bot's agreement on the same discards
  // Another network (file or run directory) compared on the same decisions, as a teacher is in a
  // validation: the split by whether the log keeps its argmax and, on a search's logs, its
  // regret and the model's gain over it paired by decision (Validation::search_gain).
  std::filesystem::path against;
};

// The validation metrics of a checkpoint on every decision of the given logs (no split).
nlohmann::ordered_json eval_pretrain(const EvalOptions& options);

}  // namespace hydra::pretrain
