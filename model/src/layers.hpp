#pragma once

// Layer builders and the init shared by the networks of hydra_model (network.cpp, critic.cpp);
// defined in network.cpp.

#include <ATen/core/Generator.h>
#include <torch/torch.h>

namespace hydra::model::detail {

inline constexpr int kGroups = 32;  // GroupNorm(32) everywhere in the trunks

torch::nn::Conv1d conv(int in, int out, int kernel, bool bias);
torch::nn::GroupNorm group_norm(int channels);
// Orthogonal init drawn in double on the CPU from `gen` (device-, dtype- and global-RNG-free).
void orthogonal(const torch::Tensor& weight, double gain, at::Generator& gen);
// Orthogonal `weight` with `gain`, zero `bias`, of the layer's own parameters.
void init_layer(torch::nn::Module& layer, double gain, at::Generator& gen);

}  // namespace hydra::model::detail
