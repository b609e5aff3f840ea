#pragma once

// The optimizer and learning-rate schedule of docs/PPO.md: AdamW with weight decay on
// weight matrices only, and linear warmup followed by cosine decay.

#include <cstdint>
#include <memory>

#include <nlohmann/json.hpp>
#include <torch/torch.h>

namespace hydra::model {

struct AdamWSettings {
  double lr = 5e-4;
  double weight_decay = 0.01;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-5;
};

// Two parameter groups: group 0 decays (conv and linear weights, GRU matrices: every parameter
// with >= 2 dimensions), group 1 does not (biases and GroupNorm affine parameters).
std::unique_ptr<torch::optim::AdamW> make_adamw(torch::nn::Module& net, const AdamWSettings& settings = {});

// One AdamW step of `optimizer`, the arithmetic of torch::optim::AdamW::step. LibTorch's C++
// step loops over the parameters, about ten kernels each (some 5,000 launches for the 40 x 256
// network, most of a minibatch's time on a GPU); with `fused` every parameter group is one
// multi-tensor kernel (at::_fused_adamw_, PyTorch's AdamW(fused=True)). The state stays in the
// optimizer (step counts, moments), so checkpoints and resumes are the same either way; results
// agree to float rounding. Parameters without a gradient are skipped, as by step().
void adamw_step(torch::optim::AdamW& optimizer, bool fused);
// fused on CUDA parameters, LibTorch's step elsewhere (the CPU runs keep their exact numbers).
void adamw_step(torch::optim::AdamW& optimizer);

// Total gradient norm of `params` before clipping (fp32, on the parameters' device; no sync),
// the gradients scaled in place to at most `max_norm` when it is > 0, as
// torch.nn.utils.clip_grad_norm_ (same arithmetic: norms of the gradients, their norm, one
// factor clamped to 1). Multi-tensor kernels: a handful of launches for any number of tensors.
torch::Tensor clip_gradients(const std::vector<torch::Tensor>& params, double max_norm);

// Sets the learning rate of every parameter group.
void set_lr(torch::optim::Optimizer& optimizer, double lr);

// lr(step) for optimizer step `step` (0-based): linear warmup from peak / warmup to peak over
// `warmup` steps, then cosine from peak down to `floor` at step `total`, flat after.
struct WarmupCosine {
  double peak = 5e-4;
  double floor = 1e-5;
  std::int64_t warmup = 0;
  std::int64_t total = 1;

  // Spec defaults: warmup over the first 5% of `total` steps.
  static WarmupCosine spec(std::int64_t total, double peak = 5e-4, double floor = 1e-5);
  double lr(std::int64_t step) const;

  // Checkpoint form; from_json throws hydra::Error on a malformed object.
  nlohmann::ordered_json to_json() const;
  static WarmupCosine from_json(const nlohmann::json& j);
};

}  // namespace hydra::model
