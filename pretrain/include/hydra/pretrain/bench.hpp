#pragma once

// The measurement behind `hydra bench pretrain` (docs/PRETRAIN.md): behaviour cloning's two
// halves apart. First the data pipeline (`hydra pretrain`'s training stream: decode, replay,
// encode, shuffle, augment; producer thread and parallel decode) drawing batches of
// pretrain.batch with nothing consuming them, then BcLearner::step on batches it already has
// (reading its losses back, a sync per step, as in training). Each phase runs `seconds` after its
// warm-up (the pipeline's first batch fills the shuffle buffer; the learner's first step chooses
// kernels and makes the AdamW state). Their ratio says whether the pipeline keeps the learner busy.

#include <cstddef>
#include <cstdint>

#include <torch/types.h>

#include "hydra/common/config.hpp"
#include "hydra/data/dataset.hpp"

namespace hydra::pretrain {

struct PretrainRate {
  std::size_t files = 0;  // training files of the stream
  std::int64_t pipeline_samples = 0;
  double pipeline_seconds = 0;
  data::DatasetReport report;  // the stream's, after the pipeline phase
  std::int64_t steps = 0;
  std::int64_t learner_samples = 0;
  double learner_seconds = 0;
  double pipeline_per_s() const { return static_cast<double>(pipeline_samples) / pipeline_seconds; }
  double learner_per_s() const { return static_cast<double>(learner_samples) / learner_seconds; }
};

// cfg.pretrain.data must name logs (hydra::Error otherwise, and when they hold no decision).
PretrainRate bench_pretrain(const config::Config& cfg, const torch::Device& device, std::uint64_t seed, double seconds);

}  // namespace hydra::pretrain
