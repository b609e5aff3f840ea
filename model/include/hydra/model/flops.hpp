#pragma once

// Arithmetic per sample of the SE-ResNet (network.hpp) and the peak a device can deliver, so that
// `hydra bench learner` can say what share of the machine a run uses. Torch-free header.
//
// Counted from the architecture, one multiply-add = 2 FLOPs, L = 34 tiles, C = model.channels,
// B = model.blocks, r = max(1, C / model.se_ratio), P = model.policy_channels:
//   stem      conv1d 85 -> C, k 3             2 * 85 * C * 3 * L
//   blocks    B x (two conv1d C -> C, k 3     2 * 2 * C * C * 3 * L
//                  SE MLP, run on the mean   2 * 2 * (C * r + r * C)
//                  and on the max pool)
//   policy    conv1x1 C -> P, fc P*L -> 46    2 * C * P * L + 2 * P * L * 46
//   value     fc C -> Hv -> 1                 2 * (C * Hv + Hv)
//   grp       fc C+16 -> Hg -> 24             2 * ((C + 16) * Hg + Hg * 24)
//   tenpai    fc C -> Ht -> 3                 2 * (C * Ht + Ht * 3)
//   danger    conv1x1 C -> 3                  2 * C * 3 * L
// GroupNorm, Mish, pooling, the SE gate and the residual adds are O(C * L) per layer against the
// convolutions' O(C^2 * L) and are left out (under 1% at 64 channels and more). A training step
// costs 3x the forward (the backward computes gradients for activations and weights, 2x), the
// convention of the scaling-law literature.

#include <cstdint>
#include <optional>
#include <string>

#include "hydra/common/config.hpp"

namespace hydra::model {

struct ForwardFlops {
  double stem = 0, blocks = 0, heads = 0;
  double total() const { return stem + blocks + heads; }
};

ForwardFlops forward_flops(const config::ModelConfig& config);

// FLOPs of one trained sample: forward + backward (3x forward), plus one more forward when a KL
// anchor network is evaluated on the same minibatch.
double train_flops_per_sample(const config::ModelConfig& config, bool anchor);

// Dense bf16 tensor-core peak of a known accelerator, in TFLOP/s, from the vendor's data sheet
// (H100 SXM and H200: 989.4; H100 PCIe: 756.5; H100 NVL: 835.5; A100: 312); nullopt when
// the name is none of those (give --peak-tflops then).
std::optional<double> known_peak_tflops(const std::string& device_name);

// What a device is, for reports: the GPU's name for "cuda" / "cuda:N" (CUDA device properties),
// the processor's model name for "cpu" (/proc/cpuinfo), "unknown" when neither can be read.
std::string device_name(const std::string& device);

}  // namespace hydra::model
