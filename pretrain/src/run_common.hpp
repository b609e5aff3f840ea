#pragma once

// Pieces the pretrain and grp run loops share (internal to hydra_pretrain).

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include "hydra/common/config.hpp"
#include "hydra/data/dataset.hpp"
#include "hydra/game/seed.hpp"

namespace hydra::pretrain::detail {

// The master seed: run.seed, or a fresh one written back into the config (so config.json and
// every checkpoint record it) and logged.
game::MasterSeed resolve_seed(config::Config& cfg, std::string_view what);

// Without `resume`, refuses a directory that already holds checkpoints; then, when this process
// `writes` (rank 0 of ranks), writes config.json into the run directory
// (model::RunContext::own_run_dir made it) and adds `log_name` in it to the log sinks.
void open_run_dir(const config::Config& cfg, std::string_view log_name, bool resume, bool writes = true);

// Errors if a checkpoint's stored model config differs from the run's.
void check_same_model(const nlohmann::ordered_json& stored, const config::Config& cfg, const std::filesystem::path& where);

nlohmann::ordered_json bad_files_json(const std::vector<data::BadFile>& bad);
void log_bad_files(std::string_view what, const std::vector<data::BadFile>& bad);

}  // namespace hydra::pretrain::detail
