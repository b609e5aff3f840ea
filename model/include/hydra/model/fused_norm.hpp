#pragma once

// The trunk's GroupNorm, its per-channel scale and shift, and Mish as one autograd function
// (model.fused_norm, docs/MODEL.md): on a CUDA device one kernel forward and one backward
// (model/src/fused_norm_kernels.cu), on the CPU the same formulas in LibTorch ops. Same function
// as F::mish(F::group_norm(x, groups, weight, bias, eps)), in x's dtype with fp32 arithmetic.

#include <cstdint>

#include <torch/torch.h>

namespace hydra::model {

// x [N, C, L] (C a multiple of groups), weight and bias [C]. Differentiable in all three. A CUDA
// x in a build without Hydra's CUDA kernels (fused_norm_kernels() false) is a hydra::Error.
torch::Tensor fused_norm_mish(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                              std::int64_t groups, double eps);

// LibTorch's own composition, the reference the fused form is checked against (hydra check).
torch::Tensor reference_norm_mish(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                  std::int64_t groups, double eps);

// Whether this build has the CUDA kernels (a CUDA LibTorch and nvcc at build time).
bool fused_norm_kernels();

// fused_norm_mish against reference_norm_mish on `device`, 32 groups, a seeded random input of
// [batch, channels, 34] (mean 0.5, std 2), non-trivial scale and shift and upstream gradient: the
// largest error of the output and of the gradients of x, weight and bias, each over the
// reference's largest magnitude. The fused side runs in `dtype`, the reference in fp32 on the same
// (rounded) input. What `hydra check` and the tests measure the kernels by.
double fused_norm_error(const torch::Device& device, torch::ScalarType dtype, int batch, int channels, std::uint64_t seed);

}  // namespace hydra::model
