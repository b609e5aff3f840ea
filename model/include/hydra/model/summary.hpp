#pragma once

// Model tools for the command line (hydra info --model, hydra export, hydra merge). The header is free of
// torch includes so apps/ compiles it quickly.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "hydra/common/config.hpp"

namespace hydra::model {

struct ComponentCount {
  std::string name;
  std::int64_t parameters = 0;
};

// Parameters of the SE-ResNet built from `config`, per component (stem, blocks, trunk_norm,
// policy, value, grp, tenpai, danger) in layer order; `per_block` is one block's share.
struct NetworkSummary {
  std::vector<ComponentCount> components;
  std::int64_t per_block = 0;
  std::int64_t total = 0;
  std::int64_t grp_model = 0;  // the separate GRU reward predictor (grp.hpp)
};
NetworkSummary summarize(const config::ModelConfig& config);

// The export's one entry that is not a weight: a 0-d int64 tensor holding encoder::kVersion.
inline constexpr std::string_view kExportEncoderVersion = "_hydra.encoder_version";

struct ExportResult {
  std::filesystem::path source;  // the checkpoint file read
  std::string kind;              // hydra_net or grp
  std::int64_t step = 0;
  std::int64_t tensors = 0;       // weights and buffers (the version entry not counted)
  std::int64_t parameters = 0;
};

// Writes the weights of a checkpoint as a state dict that Python reads with
// `torch.load(out, weights_only=True)`, with the names of the PyTorch modules in
// scripts/model_reference.py (docs/MODEL.md). `checkpoint` is a file or a checkpoint directory
// (then its newest good checkpoint). The architecture comes from the config stored in it.
ExportResult export_weights(const std::filesystem::path& checkpoint, const std::filesystem::path& out);

struct MergeOptions {
  std::vector<std::filesystem::path> inputs;  // checkpoint files of one kind and architecture
  std::filesystem::path base;                 // optional: the network the inputs were trained from
  double scale = 1.0;                         // with a base: how far along the inputs' mean difference
  std::filesystem::path out;
};

struct MergeResult {
  std::string kind;
  std::int64_t tensors = 0;     // floating-point weights and buffers merged
  std::int64_t parameters = 0;  // of the network
  double distance = 0;          // L2 norm of the result minus the base (minus the first input without one)
};

// Writes a checkpoint whose weights are the mean of the inputs' ("a uniform soup"), or with a base
// base + scale * (mean - base): scale 1 is the soup, above 1 extrapolates along the inputs' mean
// update (docs/CHECKPOINTS.md "Merging networks"). Every input and the base must hold the same
// network kind with the same tensors (names and shapes); an error names the first file that does
// not. Integer buffers are the first input's. The result stores the first input's config, step 0
// and no optimizer state; `extra` records the inputs, base and scale.
MergeResult merge_weights(const MergeOptions& options);

}  // namespace hydra::model
