#pragma once

// Layer builders and the init shared by the networks of hydra_model (network.cpp, critic.cpp);
// defined in network.cpp.

#include <ATen/core/Generator.h>
#include <torch/torch.h>

#include "hydra/model/network.hpp"

namespace hydra::model::detail {

inline constexpr int kGroups = 32;  // GroupNorm(32) everywhere in the trunks

torch::nn::Conv1d conv(int in, int out, int kernel, bool bias);
torch::nn::GroupNorm group_norm(int channels);
// Mish(norm(x)) for x of [batch, channels, tiles]. With `bf16` and a bf16 `x` under autocast, the
// normalisation runs on the bf16 tensor with bf16 copies of its affine parameters (the kernel
// keeps its statistics in fp32) instead of the fp32 copy autocast would make. With `as_groups`,
// each group's channels x tiles are normalised as one row of a [batch, groups, rest] view and the
// per-channel scale and shift follow: the same function as GroupNorm, computed by kernels that
// see rows of channels / 32 x 34 values (272 at 256 channels) instead of 34.
torch::Tensor norm_mish(torch::nn::GroupNorm norm, const torch::Tensor& x, NormSettings settings);
// Orthogonal init drawn in double on the CPU from `gen` (device-, dtype- and global-RNG-free).
void orthogonal(const torch::Tensor& weight, double gain, at::Generator& gen);
// Orthogonal `weight` with `gain`, zero `bias`, of the layer's own parameters.
void init_layer(torch::nn::Module& layer, double gain, at::Generator& gen);

}  // namespace hydra::model::detail
