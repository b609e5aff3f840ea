#pragma once

// Behaviour cloning (docs/PRETRAIN.md): the SE-ResNet learns the logged action
// of every decision (masked cross-entropy), the final placement (value), the final rank
// permutation (GRP head) and the opponents' tenpai and waits (aux heads), with AdamW, warmup +
// cosine, gradient clipping and bf16 autocast on CUDA. This header holds the pieces the run loop
// (`hydra pretrain`, run.hpp) and the tests share: one optimizer step and one validation pass.

#include <cstdint>
#include <memory>

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include "hydra/common/config.hpp"
#include "hydra/common/metrics.hpp"
#include "hydra/data/dataset.hpp"
#include "hydra/model/distributed.hpp"
#include "hydra/model/grad_buckets.hpp"
#include "hydra/model/losses.hpp"
#include "hydra/model/network.hpp"
#include "hydra/model/optim.hpp"
#include "hydra/pretrain/accuracy.hpp"

namespace hydra::pretrain {

// One SampleBatch as tensors on `device` (CPU tensors wrap the batch's arrays without a copy:
// keep the batch alive and unchanged while they are in use).
struct BcBatch {
  torch::Tensor obs;      // [B,85,34]
  torch::Tensor context;  // [B,16]
  model::Targets targets;
};
BcBatch to_tensors(const data::SampleBatch& batch, const torch::Device& device);

// Tallies the masked arg-max of `policy_logits` [B,46] against the batch's logged actions, per
// decision type, and feeds the discard decisions to the baseline.
void tally(const torch::Tensor& policy_logits, const data::SampleBatch& batch, DecisionAccuracy& acc);

// The stream `hydra pretrain` trains on (validation false) or validates on (true) under `cfg`:
// pretrain.data, its split, shuffle buffer and augmentation, rules.preset for logs that name none.
data::DatasetOptions dataset_options(const config::Config& cfg, game::MasterSeed seed, bool validation);

struct LossValues {
  double total = 0, policy = 0, value = 0, grp = 0, tenpai = 0, danger = 0;
};

struct StepStats {
  std::int64_t samples = 0;  // rows of the step (with ranks, of every rank's batch)
  LossValues loss;
  double grad_norm = 0;  // before clipping
  double accuracy = 0;   // top-1 on the batch
  double lr = 0;
};

// The training model, its optimizer and schedule.
class BcLearner {
 public:
  // Builds the network from `model`, initialised from `init_seed`, on `device`; AdamW and the
  // warmup + cosine schedule over `total_steps` from `pretrain`.
  BcLearner(const config::ModelConfig& model, const config::PretrainConfig& pretrain, const torch::Device& device,
            std::int64_t total_steps, std::uint64_t init_seed);

  // Data-parallel replicas (docs/DISTRIBUTED.md): every rank takes rank 0's weights and from
  // then on each step is one step on the union of the ranks' batches (the gradient of its mean
  // loss, summed over the ranks during the backward pass), with the loss and accuracy of the
  // union. Null (the default): one process. Every rank calls step() the same number of times.
  void set_group(model::ProcessGroup* group);

  // One optimizer step on `batch` at the schedule's learning rate for steps() (with a group, on
  // every rank's batch: each needs at least one row).
  StepStats step(const data::SampleBatch& batch);

  model::HydraNet& net() { return net_; }
  torch::optim::Optimizer& optimizer() { return *optimizer_; }
  const model::WarmupCosine& schedule() const { return schedule_; }
  std::int64_t steps() const { return steps_; }
  void set_steps(std::int64_t s) { steps_ = s; }

 private:
  config::ModelConfig model_cfg_;
  config::PretrainConfig pretrain_cfg_;
  torch::Device device_;
  model::HydraNet net_;
  std::unique_ptr<torch::optim::AdamW> optimizer_;
  model::WarmupCosine schedule_;
  std::int64_t steps_ = 0;
  model::ProcessGroup* group_ = nullptr;
  std::unique_ptr<model::GradientBuckets> buckets_;
};

struct Validation {
  std::int64_t samples = 0;
  LossValues loss;  // means over the samples
  DecisionAccuracy accuracy;
  double seconds = 0;

  nlohmann::ordered_json to_json() const;
  // "val/loss", "val/acc/discard", "val/baseline/discard", ... for the metrics writer.
  metrics::Scalars scalars(std::string_view prefix = "val/") const;
};

// Losses and accuracies of `net` over up to `max_samples` samples of `data` (read until it ends
// or the cap), in batches of `batch`, without gradients.
Validation validate(model::HydraNetImpl& net, data::Dataset& data, const config::ModelConfig& model_cfg,
                    const torch::Device& device, std::int64_t max_samples, int batch);

}  // namespace hydra::pretrain
