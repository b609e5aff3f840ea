// CUDA graphs of an inference snapshot's forward pass (cuda_graphs.hpp).

#include "cuda_graphs.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <string>

#include <ATen/autocast_mode.h>

#include "hydra/common/log.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/model/precision.hpp"
#include "hydra/model/runtime.hpp"
#include "hydra/selfplay/rollout.hpp"

#if __has_include(<ATen/cuda/CUDAGraph.h>) && __has_include(<cuda_runtime_api.h>)
#define HYDRA_CUDA_GRAPHS 1
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#else
#define HYDRA_CUDA_GRAPHS 0
#endif

namespace hydra::selfplay::detail {

torch::Tensor logits_and_values(model::HydraNetImpl& net, const torch::Tensor& obs, const torch::Tensor& context,
                                c10::DeviceType device, bool autocast) {
  model::Outputs o;
  {
    model::AutocastGuard guard(device, autocast);
    o = net.forward(obs, context);
  }
  return torch::cat({o.policy.to(torch::kFloat), o.value.to(torch::kFloat).reshape({obs.size(0), 1})}, 1);
}

#if HYDRA_CUDA_GRAPHS

namespace {

constexpr std::int64_t kObs = encoder::kObsSize;
constexpr std::int64_t kRow = kObs + kContext;  // one packed input row
constexpr std::int64_t kOut = kActions + 1;     // logits and value

// Batch buckets: powers of two up to 64, then steps of 1.5x and 2x (padding wastes at most a
// third of a pass above 64 rows).
constexpr std::array<std::int64_t, 17> kBuckets{1, 2, 4, 8, 16, 32, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048};

std::int64_t bucket_for(std::int64_t n) {
  for (const auto b : kBuckets)
    if (b >= n) return b;
  return kBuckets.back();
}

// The forward of one packed batch: logits and value as fp32 [b, 47] on the device.
torch::Tensor packed_forward(model::HydraNetImpl& net, const torch::Tensor& input, c10::DeviceType device,
                             bool autocast) {
  const auto b = input.size(0);
  const auto obs = input.narrow(1, 0, kObs).view({b, encoder::kChannels, encoder::kTiles});
  return logits_and_values(net, obs, input.narrow(1, kObs, kContext), device, autocast);
}

}  // namespace

bool cuda_graphs_built() { return true; }

struct GraphedForward::Impl {
  struct Entry {
    at::cuda::CUDAGraph graph;
    torch::Tensor input;   // [bucket, kRow] on the device: what the graph reads
    torch::Tensor output;  // [bucket, kOut] on the device: what the graph writes
  };

  model::HydraNet net;
  torch::Device device;
  bool autocast;
  std::mutex mu;  // one replay or capture at a time: the graphs share buffers and a pool
  bool failed = false;
  at::cuda::CUDAStream stream;
  c10::MempoolId_t pool;
  std::map<std::int64_t, std::unique_ptr<Entry>> entries;

  Impl(model::HydraNet n, torch::Device d, bool a)
      : net(std::move(n)), device(d), autocast(a), stream(c10::cuda::getStreamFromPool(false, d.index())),
        pool(at::cuda::graph_pool_handle()) {}

  // The graph of bucket `b`, captured on first use; nullptr when capturing failed.
  Entry* entry(std::int64_t b) {
    if (const auto it = entries.find(b); it != entries.end()) return it->second.get();
    auto e = std::make_unique<Entry>();
    const bool cache = at::autocast::is_autocast_cache_enabled();
    try {
      torch::InferenceMode inference;
      e->input = torch::zeros({b, kRow}, torch::TensorOptions().dtype(torch::kFloat).device(device));
      // Warm-up passes on the capture stream first: cuBLAS / cuDNN handles and workspaces are
      // made there, outside the capture.
      for (int i = 0; i < 2; ++i) (void)packed_forward(*net, e->input, device.type(), autocast);
      stream.synchronize();
      // The autocast weight cache would hold copies made during capture; LibTorch asks for it off.
      at::autocast::set_autocast_cache_enabled(false);
      e->graph.capture_begin(pool, cudaStreamCaptureModeThreadLocal);
      try {
        e->output = packed_forward(*net, e->input, device.type(), autocast);
      } catch (...) {
        try {
          e->graph.capture_end();
        } catch (...) {
        }
        throw;
      }
      e->graph.capture_end();
      at::autocast::set_autocast_cache_enabled(cache);
      stream.synchronize();
    } catch (const std::exception& err) {
      at::autocast::set_autocast_cache_enabled(cache);
      failed = true;
      log::warn("inference: capturing a CUDA graph of batch {} failed ({}); this snapshot runs without graphs", b,
                err.what());
      return nullptr;
    }
    log::debug("inference: captured the CUDA graph of batch {}", b);
    return entries.emplace(b, std::move(e)).first->second.get();
  }
};

GraphedForward::GraphedForward(model::HydraNet net, torch::Device device, bool autocast)
    : impl_(std::make_unique<Impl>(std::move(net), device, autocast)) {}

GraphedForward::~GraphedForward() = default;

torch::Tensor GraphedForward::run(const torch::Tensor& staging) {
  const std::lock_guard lock(impl_->mu);
  if (impl_->failed) return {};
  const c10::cuda::CUDAStreamGuard on_stream(impl_->stream);
  torch::InferenceMode inference;
  const std::int64_t n = staging.size(0);
  auto result = torch::empty({n, kOut}, torch::TensorOptions().dtype(torch::kFloat));
  for (std::int64_t at = 0; at < n;) {
    const std::int64_t m = std::min(n - at, kBuckets.back());
    auto* e = impl_->entry(bucket_for(m));
    if (e == nullptr) return {};
    e->input.narrow(0, 0, m).copy_(staging.narrow(0, at, m), /*non_blocking=*/true);
    e->graph.replay();
    // The copy to the host waits for the replay on this stream.
    result.narrow(0, at, m).copy_(e->output.narrow(0, 0, m));
    at += m;
  }
  return result;
}

#else

bool cuda_graphs_built() { return false; }

struct GraphedForward::Impl {};

GraphedForward::GraphedForward(model::HydraNet, torch::Device, bool) {}

GraphedForward::~GraphedForward() = default;

torch::Tensor GraphedForward::run(const torch::Tensor&) { return {}; }

#endif

}  // namespace hydra::selfplay::detail
