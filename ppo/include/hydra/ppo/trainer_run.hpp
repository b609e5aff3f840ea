#pragma once

// The run directory of `hydra train` (docs/TRAINING.md): what is written before the first update
// and what a resume checks. Torch-free.
//
//   RUN_DIR/config.json    the effective config, the master seed filled in
//   RUN_DIR/seeds.json     the master seed, whether it was drawn, and the stream keys it roots
//   RUN_DIR/train.log      the log of every session of the run, appended
//   RUN_DIR/metrics.jsonl  one record per logged update (common/metrics.hpp), tb/ next to it
//   RUN_DIR/checkpoints/   step-<12 digits>.ckpt (+ .sha256), `latest`, `best`

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hydra/common/config.hpp"

namespace hydra::ppo {

struct RunPaths {
  std::filesystem::path root;
  std::filesystem::path config() const { return root / "config.json"; }
  std::filesystem::path seeds() const { return root / "seeds.json"; }
  std::filesystem::path log() const { return root / "train.log"; }
  std::filesystem::path checkpoints() const { return root / "checkpoints"; }
};

// Whether a config key (a dotted path such as "train.max_updates") may change when a run is
// resumed: bounds, reporting, retention and where the run executes. Everything else (rules,
// model, selfplay, ppo, the seed) shapes the trajectory, so a change is refused.
bool resume_may_differ(const std::string& key);

struct ConfigChange {
  std::string key;
  std::string saved;  // JSON text of the value in the run directory
  std::string now;    // JSON text of the value asked for now
};

// Every leaf key whose value differs between two effective configs (config::to_json form),
// including keys present in only one of them, in the order of `now`.
std::vector<ConfigChange> config_changes(const nlohmann::json& saved, const nlohmann::json& now);

// The config of a new or resumed run, with its master seed settled.
struct PreparedRun {
  config::Config config;     // effective: run.seed set, run.dir = the run directory
  RunPaths paths;
  std::uint64_t seed = 0;
  bool seed_drawn = false;   // drawn from the OS this session (new runs without a seed)
  std::vector<ConfigChange> resume_changes;  // allowed changes against the saved config
};

// A new run: refuses a directory that already holds checkpoints (resume it or pick another),
// draws and logs the master seed when the config has none, creates the directory and writes
// config.json and seeds.json.
// A resume: refuses a directory without a checkpoint or without config.json, takes the saved
// seed when the config has none, refuses any change to a key that matters (listing each with
// both values), logs the allowed ones and rewrites config.json with the new bounds.
// What a killed session left in the directory is the trainer's RunContext's to remove
// (model/run_context.hpp).
// `has_checkpoint` tells whether RUN_DIR/checkpoints holds one (the caller owns the format).
// `writes` false (the ranks other than 0 of a data-parallel run): the same checks, nothing
// created or written.
PreparedRun prepare_run(config::Config config, const std::filesystem::path& run_dir, bool resume,
                        bool has_checkpoint, bool writes = true);

// seeds.json: {"master_seed": N, "drawn": bool, "streams": {label: hex key}}.
nlohmann::ordered_json seeds_json(std::uint64_t seed, bool drawn);

}  // namespace hydra::ppo
