#include "hydra/model/flops.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>

#include <torch/torch.h>

// The CUDA runtime's headers come with the toolkit LibTorch's CUDA build needs; a CPU-only
// LibTorch has neither, and then GPUs have no name here.
#if __has_include(<ATen/cuda/CUDAContext.h>) && __has_include(<cuda_runtime_api.h>)
#include <ATen/cuda/CUDAContext.h>
#define HYDRA_HAVE_CUDA_PROPERTIES 1
#endif

#include "hydra/model/network.hpp"

namespace hydra::model {

ForwardFlops forward_flops(const config::ModelConfig& m) {
  const double L = kTiles, C = m.channels, P = m.policy_channels;
  const double r = std::max(1, m.channels / m.se_ratio);
  ForwardFlops f;
  f.stem = 2.0 * kObsChannels * C * 3 * L;
  const double block = 2.0 * 2 * C * C * 3 * L + 2.0 * 2 * (C * r + r * C);
  f.blocks = block * m.blocks;
  const double policy = 2.0 * C * P * L + 2.0 * P * L * kActions;
  const double value = 2.0 * ((C + kScoreContext) * m.value_hidden + m.value_hidden);
  const double grp = 2.0 * ((C + kScoreContext) * m.grp_hidden + static_cast<double>(m.grp_hidden) * kRankPerms);
  const double tenpai = 2.0 * (C * m.tenpai_hidden + static_cast<double>(m.tenpai_hidden) * kOpponents);
  const double danger = 2.0 * C * kOpponents * L;
  f.heads = policy + value + grp + tenpai + danger;
  return f;
}

double train_flops_per_sample(const config::ModelConfig& config, bool anchor) {
  const double forward = forward_flops(config).total();
  return 3.0 * forward + (anchor ? forward : 0.0);
}

std::optional<double> known_peak_tflops(const std::string& device_name) {
  std::string name = device_name;
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::toupper(c); });
  const auto has = [&](const char* s) { return name.find(s) != std::string::npos; };
  // Order matters: "H100 PCIe" and "H100 NVL" before the plain (SXM) H100.
  if (has("H200")) return 989.4;
  if (has("H100") && has("PCIE")) return 756.5;
  if (has("H100") && has("NVL")) return 835.5;
  if (has("H100")) return 989.4;
  if (has("A100")) return 312.0;
  return std::nullopt;
}

std::string device_name(const std::string& device) {
  if (device.rfind("cuda", 0) == 0) {
#ifdef HYDRA_HAVE_CUDA_PROPERTIES
    if (!torch::cuda::is_available()) return "unknown";
    const torch::Device d(device);
    const auto* props = at::cuda::getDeviceProperties(d.has_index() ? d.index() : 0);
    return props != nullptr ? std::string(props->name) : "unknown";
#else
    return "unknown";
#endif
  }
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) break;
    auto begin = line.find_first_not_of(" \t", colon + 1);
    return begin == std::string::npos ? "unknown" : line.substr(begin);
  }
  return "unknown";
}

}  // namespace hydra::model
