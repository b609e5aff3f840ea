#pragma once

// Losses that belong to the model (docs/MODEL.md): masked policy cross-entropy, value MSE, GRP
// cross-entropy, tenpai BCE and danger focal BCE, plus the weighted total. All take logits.

#include <torch/torch.h>

#include "hydra/common/config.hpp"
#include "hydra/model/network.hpp"

namespace hydra::model {

// Logit given to illegal actions. Finite on purpose: exp(-1e9 - max) is exactly 0 in fp32,
// bf16 and fp64, and unlike -inf it never meets inf - inf or 0 * inf (NaN) in log-softmax,
// entropy or gradients.
inline constexpr double kIllegalLogit = -1e9;

// logits [B,46] with illegal (mask false) entries set to kIllegalLogit.
torch::Tensor masked_logits(const torch::Tensor& logits, const torch::Tensor& legal);
// Softmax over legal actions; illegal probabilities are exactly 0. Each row needs >= 1 legal.
torch::Tensor masked_softmax(const torch::Tensor& logits, const torch::Tensor& legal);
torch::Tensor masked_log_softmax(const torch::Tensor& logits, const torch::Tensor& legal);

// sum(w x) / sum(w) over every entry of `values`, `weight` of the same shape or broadcastable
// (a mask of 0/1, or row weights [B] for values [B]); undefined: values.mean(). A weight sum
// below 1 counts as 1, so an all-zero mask gives 0 instead of 0/0.
torch::Tensor weighted_mean(const torch::Tensor& values, const torch::Tensor& weight = {});

// Mean of -log p(target) under the masked softmax; target [B] int64 (a legal action).
torch::Tensor policy_loss(const torch::Tensor& logits, const torch::Tensor& legal, const torch::Tensor& target);
// Mean squared error; value [B,1] or [B], target [B]; with row weights [B] the weighted mean.
torch::Tensor value_loss(const torch::Tensor& value, const torch::Tensor& target, const torch::Tensor& weight = {});
// Cross-entropy over the 24 rank permutations; target [B] int64 permutation index.
torch::Tensor grp_loss(const torch::Tensor& logits, const torch::Tensor& target);
// Binary cross-entropy with logits; target in [0,1], same shape. `weight` (optional, same shape
// or broadcastable, 0/1) masks labels the data does not give; the mean is over weighted entries.
torch::Tensor bce_loss(const torch::Tensor& logits, const torch::Tensor& target,
                       const torch::Tensor& weight = {});
// Focal BCE (Lin et al. 2017): -alpha_t (1 - p_t)^gamma log p_t with alpha_t = alpha for
// positive labels, 1 - alpha for negatives; computed from log-sigmoid, so stable for any logit.
torch::Tensor focal_loss(const torch::Tensor& logits, const torch::Tensor& target, double alpha,
                         double gamma, const torch::Tensor& weight = {});

// Training targets for one batch. An undefined tensor leaves its loss term out.
struct Targets {
  torch::Tensor legal;         // [B,46] bool
  torch::Tensor action;        // [B] int64
  torch::Tensor value;         // [B] float
  torch::Tensor grp;           // [B] int64 permutation index
  torch::Tensor tenpai;        // [B,3] float 0/1
  torch::Tensor tenpai_weight; // optional [B,3] or [B,1]
  torch::Tensor danger;        // [B,3,34] float 0/1
  torch::Tensor danger_weight; // optional [B,3,34], [B,3,1] or [B,1,1]
  // Optional, with `action`: a distribution over the actions [B,46] (zero where illegal) that
  // replaces the one-hot of `action` as the policy's target (a teacher's policy, BC's
  // pretrain.teacher), and row weights [B] of the policy term (a mean over rows of weight x term,
  // so the term stays a mean over rows); either may be left out.
  torch::Tensor policy_target;
  torch::Tensor policy_weight;
};

struct Losses {
  torch::Tensor total;  // weighted sum of the defined terms
  torch::Tensor policy, value, grp, tenpai, danger;  // unweighted; undefined when left out
};

// The spec's weighted loss with weights and focal parameters from the model config.
Losses compute_losses(const Outputs& out, const Targets& targets, const config::ModelConfig& config);

}  // namespace hydra::model
