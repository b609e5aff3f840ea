#pragma once

// Gradients summed over the ranks of a process group while the backward pass still runs
// (docs/DISTRIBUTED.md), as PyTorch's DDP does: the parameters are cut into buckets of about
// `bucket_bytes`, a hook on each parameter copies its gradient into its bucket as autograd
// produces it, and a full bucket's sum starts at once on the backend (Gloo's threads, NCCL's
// stream) while autograd goes on to the layers before it.
//
//   model::GradientBuckets sync(group, net->parameters());
//   optimizer.zero_grad();
//   sync.arm();
//   loss.backward();
//   sync.finish();        // every parameter's .grad() is now the sum over the ranks
//
// Buckets follow the order in which gradients arrive. That order is learnt from the first backward
// pass of each set of trainable parameters (the parameters with requires_grad: PPO's value warm-up
// trains a subset), taken from rank 0 so that every rank cuts the same buckets, and used from the
// next pass on; the learning pass sums everything at its end. Buckets start in bucket order on
// every rank (a full bucket waits for the ones before it), and a parameter that gets no gradient
// in a pass counts as zero: its bucket starts at finish() at the latest. The sums are the same
// numbers a single flat all-reduce of the gradients gives.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <ATen/core/Tensor.h>

#include "hydra/model/distributed.hpp"

namespace torch::nn {
class Module;
}

namespace hydra::model {

// Replicas start equal: `root`'s parameters and buffers into every rank's `module` (the same
// architecture everywhere).
void broadcast_module(ProcessGroup& group, torch::nn::Module& module, int root = 0);

class GradientBuckets {
 public:
  static constexpr std::size_t kDefaultBucketBytes = std::size_t{4} << 20;

  GradientBuckets(ProcessGroup& group, std::vector<at::Tensor> params, std::size_t bucket_bytes = kDefaultBucketBytes);
  ~GradientBuckets();
  GradientBuckets(const GradientBuckets&) = delete;
  GradientBuckets& operator=(const GradientBuckets&) = delete;

  // Before a backward pass: drops the trainable parameters' gradients (as zero_grad(set_to_none))
  // and hooks them to collect this pass's.
  void arm();
  // After it: waits for every bucket and sets each trainable parameter's grad to the sum over the
  // ranks (a tensor of its own) (errors as ProcessGroup::all_reduce_sum's). Frozen parameters are left as they were.
  void finish();

  // Buckets of the current layout (0 while a layout is being learnt); for tests and logs.
  std::size_t buckets() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hydra::model
