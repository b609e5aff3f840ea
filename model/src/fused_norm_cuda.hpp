#pragma once

// The CUDA half of model::fused_norm_mish (fused_norm.hpp), in fused_norm_kernels.cu. Only
// ATen types here: nvcc compiles this header without torch/torch.h.

#include <cstdint>
#include <tuple>

#include <ATen/core/Tensor.h>

namespace hydra::model::detail {

// x [N, C, L] on a CUDA device (float, bf16 or half), weight and bias [C] (any floating type).
// Returns y (x's type) and the per-(sample, group) mean and 1 / std, fp32 [N, groups].
std::tuple<at::Tensor, at::Tensor, at::Tensor> fused_norm_mish_cuda_forward(const at::Tensor& x, const at::Tensor& weight,
                                                                            const at::Tensor& bias, std::int64_t groups,
                                                                            double eps);

// Gradients of y = mish(GroupNorm(x) * weight + bias) for the upstream gradient dy (x's type):
// dx (x's type), d weight and d bias (fp32 [C]).
std::tuple<at::Tensor, at::Tensor, at::Tensor> fused_norm_mish_cuda_backward(const at::Tensor& dy, const at::Tensor& x,
                                                                             const at::Tensor& weight, const at::Tensor& bias,
                                                                             const at::Tensor& mean, const at::Tensor& rstd,
                                                                             std::int64_t groups);

}  // namespace hydra::model::detail
