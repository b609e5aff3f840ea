#pragma once

// CUDA graphs of an inference snapshot's forward pass (docs/GPU.md "CUDA graphs").
//
// A forward of the 40 x 256 network is some 1,500 small kernels; launched one by one from the
// host it costs about 23 ms on an H200 whatever the batch (1 or 256 rows), so self-play's
// batches were bound by launch overhead, not by the GPU. A CUDA graph replays the whole forward
// with one launch. GraphedForward captures one graph per batch bucket (1, 2, 4, 8, 16, 32, 64,
// 96, 128, 192, ..., 2048: the smallest bucket >= the batch; larger batches run in chunks of
// 2048) on first use, all sharing one memory pool, and replays it on a static input buffer
// padded to the bucket (rows are independent: GroupNorm and the SE pooling are per sample, so
// padding rows change nothing; `hydra check` compares graph and eager outputs).
//
// Replays of one snapshot are serialised by a mutex (the graphs share their static buffers and
// pool). Capture runs on a side stream in thread-local capture mode, so other threads (the
// learner) may use the GPU meanwhile. A capture that fails is reported once and the snapshot
// falls back to eager forwards.

#include <cstdint>
#include <memory>

#include <torch/torch.h>

#include "hydra/model/network.hpp"

namespace hydra::selfplay::detail {

// The forward evaluate() needs, eager or captured: the policy logits and the value of rows
// `obs` [n, 85, 34] and `context` [n, 16] as one fp32 tensor [n, 46 + 1] on the network's device,
// under bf16 autocast on `device` when `autocast`.
torch::Tensor logits_and_values(model::HydraNetImpl& net, const torch::Tensor& obs, const torch::Tensor& context,
                                c10::DeviceType device, bool autocast);

// Whether this build can capture CUDA graphs (compiled against LibTorch's CUDA headers).
bool cuda_graphs_built();

class GraphedForward {
 public:
  // `net` on a CUDA `device`, in eval mode with no grad; `autocast`: bf16 autocast in the graph.
  GraphedForward(model::HydraNet net, torch::Device device, bool autocast);
  ~GraphedForward();
  GraphedForward(const GraphedForward&) = delete;
  GraphedForward& operator=(const GraphedForward&) = delete;

  // Rows of `staging` (host, pinned, fp32 [n, obs + context] as InferenceModel::evaluate packs
  // them) through the graphs: fp32 host tensor [n, 46 logits + 1 value]. Undefined when graphs
  // are unavailable (a capture failed): the caller runs the eager forward.
  torch::Tensor run(const torch::Tensor& staging);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hydra::selfplay::detail
