#pragma once

// Checkpoints (docs/CHECKPOINTS.md). One file per checkpoint holding the model,
// the optimizer, RNG states, step counter, config, metrics, scheduler and the caller's own state
// (JSON plus named tensors), with a format version. Files are written atomically and carry a
// SHA-256 sidecar (`FILE.sha256`, sha256sum format) that loading verifies first.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include "hydra/common/config.hpp"

namespace hydra::model {

inline constexpr std::int64_t kCheckpointFormat = 1;

// Everything in a checkpoint except the model and optimizer, which are written from and read
// into live objects.
struct CheckpointData {
  std::string kind = "hydra_net";  // the network: "hydra_net" (network.hpp) or "grp" (grp.hpp)
  std::int64_t step = 0;           // learner updates done
  nlohmann::ordered_json config = nlohmann::ordered_json::object();     // effective run config
  nlohmann::ordered_json metrics = nlohmann::ordered_json::object();    // e.g. {"loss": 0.9}
  nlohmann::ordered_json scheduler = nlohmann::ordered_json::object();  // e.g. WarmupCosine::to_json
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();      // caller state: counters...
  std::map<std::string, torch::Tensor> tensors;                         // caller tensors: running stats...
};

struct LoadOptions {
  bool restore_rng = true;  // set torch's CPU (and CUDA) generators to the saved states
};

// Writes `file` and `file.sha256` atomically. The RNG states saved are torch's default CPU
// generator and, when CUDA is available, each device's default generator.
void save_checkpoint(const std::filesystem::path& file, const CheckpointData& data,
                     const torch::nn::Module& model, const torch::optim::Optimizer* optimizer = nullptr);

// Throws hydra::Error unless `file` matches its sidecar (missing, truncated, flipped byte).
void verify_checkpoint(const std::filesystem::path& file);

// Verifies, then reads into `model` and `optimizer` (either may be null: then that part is
// skipped), mapping tensors to the model's device. Errors name the file.
CheckpointData load_checkpoint(const std::filesystem::path& file, torch::nn::Module* model,
                               torch::optim::Optimizer* optimizer = nullptr, const LoadOptions& options = {});

// The config a checkpoint was written with (CheckpointData::config), parsed and validated; an error
// naming `file` when it does not parse (a checkpoint of another Hydra version).
config::Config stored_config(const std::filesystem::path& file, const CheckpointData& data);

// A run's checkpoint directory: `step-<12 digits>.ckpt` files with sidecars, `latest` and `best`
// pointer files (one file name each), and a retention limit.
class CheckpointDir {
 public:
  // keep: how many of the newest checkpoints survive a save (the `best` one always does); 0 = all.
  CheckpointDir(std::filesystem::path dir, int keep);

  // Saves a checkpoint for data.step, moves `latest` (and `best` when is_best) to it, prunes.
  std::filesystem::path save(const CheckpointData& data, const torch::nn::Module& model,
                             const torch::optim::Optimizer* optimizer = nullptr, bool is_best = false);

  std::vector<std::filesystem::path> list() const;  // checkpoint files, oldest step first
  std::optional<std::filesystem::path> pointer(std::string_view name) const;  // "latest" or "best"

  // Loads the newest checkpoint that verifies and reads: the one `latest` names first, then every
  // other one newest first, logging a warning for each refused file. nullopt when the directory
  // holds no checkpoint; hydra::Error listing every refusal when none loads.
  std::optional<CheckpointData> load_latest(torch::nn::Module* model, torch::optim::Optimizer* optimizer = nullptr,
                                            const LoadOptions& options = {},
                                            std::filesystem::path* loaded_from = nullptr) const;

  const std::filesystem::path& dir() const { return dir_; }

 private:
  void prune() const;
  std::filesystem::path dir_;
  int keep_;
};

// Another network's weights inside a checkpoint's caller tensors, under a name prefix (the
// trainer keeps its self-play snapshot and opponent pool this way): every parameter and buffer
// of `net` as a CPU tensor named prefix + its name.
void save_prefixed(const torch::nn::Module& net, const std::string& prefix, CheckpointData& out);
// Copies them back into `net` (the same architecture); a missing tensor or one of another shape
// is a hydra::Error naming `file`.
void load_prefixed(torch::nn::Module& net, const std::string& prefix, const CheckpointData& in,
                   const std::filesystem::path& file);

// Writes named tensors as a Python-loadable dict (`torch.load(f, weights_only=True)` gives a
// dict of CPU tensors), atomically.
void save_tensor_dict(const std::filesystem::path& file,
                      const std::vector<std::pair<std::string, torch::Tensor>>& tensors);

}  // namespace hydra::model
