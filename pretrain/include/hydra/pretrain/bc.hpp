#pragma once

// Behaviour cloning (docs/PRETRAIN.md): the SE-ResNet learns the logged action
// of every decision (masked cross-entropy), the final placement (value), the final rank
// permutation (GRP head) and the opponents' tenpai and waits (aux heads), with AdamW, warmup +
// cosine, gradient clipping and bf16 autocast on CUDA. This header holds the pieces the run loop
// (`hydra pretrain`, run.hpp) and the tests share: one optimizer step and one validation pass.

#include <cstdint>
#include <filesystem>
#include <string>
#include <memory>
#include <optional>
#include <utility>

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
  torch::Tensor searched;      // [B,46] bool: the candidates a search played out (none: all false)
  torch::Tensor search_value;  // [B,46] float: their mean rewards
};

// The teacher's policy `probs` [B,46] with its mass on each row's searched candidates reweighted by
// exp(value / temperature) (docs/PRETRAIN.md "The search's values as the target"): p'(c) is
// P p(c) e^(v_c / T) / sum_c' p(c') e^(v_c' / T) for the candidates, P their total under p; the
// other actions and the rows without a search keep p.
torch::Tensor search_target(const torch::Tensor& probs, const torch::Tensor& searched, const torch::Tensor& values,
                            double temperature);
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
  double corrected = 0;  // with pretrain.teacher: share of the rows whose logged action is not its argmax
  double searched = 0;   // share of the rows whose logged action a search chose (data::SearchNote)
};

// Reads a "hydra_net" checkpoint's weights into `net` (optimizer and RNG untouched); `what` names
// the setting the file came from in the errors (another kind of network is refused by name).
void load_weights(const std::filesystem::path& file, model::HydraNetImpl& net, const std::string& what);

// The training model, its optimizer and schedule.
class BcLearner {
 public:
  // Builds the network from `model`, initialised from `init_seed`, on `device`; AdamW and the
  // warmup + cosine schedule over `total_steps` from `pretrain`; pretrain.teacher's network, frozen.
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
  // pretrain.teacher's network; null without one.
  model::HydraNetImpl* teacher() { return teacher_ ? teacher_.get() : nullptr; }
  torch::optim::Optimizer& optimizer() { return *optimizer_; }
  const model::WarmupCosine& schedule() const { return schedule_; }
  std::int64_t steps() const { return steps_; }
  void set_steps(std::int64_t s) { steps_ = s; }

 private:
  config::ModelConfig model_cfg_;
  config::PretrainConfig pretrain_cfg_;
  torch::Device device_;
  model::HydraNet net_;
  model::HydraNet teacher_{nullptr};  // pretrain.teacher, in eval mode without gradients
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
  // With a teacher: the samples whose logged action is its argmax (kept) and those where the log
  // corrects it, and how many of each the network's argmax matches.
  struct TeacherSplit {
    std::int64_t kept = 0, kept_matched = 0, corrected = 0, corrected_matched = 0;
  };
  std::optional<TeacherSplit> teacher;
  // Where the logs carry a search's notes (data::SearchNote, docs/LOGS.md): the searched samples,
  // those where the network's argmax is one of the search's candidates (covered), and over those
  // the sum (and sum of squares) of the search's value of its own choice minus its value of the
  // network's: the search's estimate of what playing the network instead costs (0 where the two
  // agree). On logs no network trained on, it compares networks' choices by the search's values
  // (docs/PRETRAIN.md "The search's regret").
  struct SearchRegret {
    std::int64_t searched = 0, covered = 0;
    double sum = 0, sum_sq = 0;
    // Adds the rows flagged in `covered` [B] (of the `searched` rows [B]) with their `regret` [B].
    void add(const torch::Tensor& regret, const torch::Tensor& covered, const torch::Tensor& searched);
    double mean() const;            // per covered decision (NaN with none)
    double standard_error() const;  // of that mean (NaN with fewer than two)
  };
  std::optional<SearchRegret> search;
  // With a teacher: its regret on the same rows, and the teacher's regret minus the network's on the
  // rows both cover (the network's gain over its teacher by the search's values, paired by row).
  std::optional<SearchRegret> teacher_search, search_gain;
  double seconds = 0;

  nlohmann::ordered_json to_json() const;
  // "val/loss", "val/acc/discard", "val/baseline/discard", ... for the metrics writer.
  metrics::Scalars scalars(std::string_view prefix = "val/") const;
};

// Each row's regret (the search's value of the logged action minus that of the masked argmax of
// `policy_logits` [B,46]) and whether that argmax is one of the row's searched candidates; rows
// without a search are not covered.
std::pair<torch::Tensor, torch::Tensor> search_regret(const torch::Tensor& policy_logits, const BcBatch& t);

// Losses and accuracies of `net` over up to `max_samples` samples of `data` (read until it ends
// or the cap), in batches of `batch`, without gradients; with `teacher`, split by whether the log
// keeps or corrects the teacher's argmax.
Validation validate(model::HydraNetImpl& net, data::Dataset& data, const config::ModelConfig& model_cfg,
                    const torch::Device& device, std::int64_t max_samples, int batch,
                    model::HydraNetImpl* teacher = nullptr);

}  // namespace hydra::pretrain
