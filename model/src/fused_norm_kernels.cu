// CUDA kernels of model::fused_norm_mish (fused_norm.hpp): GroupNorm with its per-channel affine,
// then Mish, forward and backward, one warp per (sample, group) row. A row is the group's
// channels x L tiles, contiguous in memory ([N, C, L] with channels consecutive), 272 values for
// 8 channels of 34 tiles: where LibTorch's GroupNorm, affine, Mish and their backward are about
// a dozen kernels with per-channel rows of 34, this is one kernel each way (plus one sum of the
// weight gradients over the batch). Statistics and arithmetic in fp32 whatever the tensors' type.

#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

#include "fused_norm_cuda.hpp"

namespace hydra::model::detail {
namespace {

constexpr int kWarpsPerBlock = 8;
constexpr unsigned kFullMask = 0xffffffffu;

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(kFullMask, v, offset);
  return v;
}

// Mish and its derivative as LibTorch's CUDA kernels compute them (x * tanh(log1p(exp(x)))).
__device__ __forceinline__ float mish(float z) { return z * tanhf(log1pf(expf(z))); }

__device__ __forceinline__ float mish_grad(float z) {
  const float sigmoid = 1.0f / (1.0f + expf(-z));
  const float t = tanhf(log1pf(expf(z)));
  return t + z * sigmoid * (1.0f - t * t);
}

template <typename T>
__global__ void forward_kernel(const T* __restrict__ x, const float* __restrict__ weight, const float* __restrict__ bias,
                               T* __restrict__ y, float* __restrict__ mean_out, float* __restrict__ rstd_out,
                               std::int64_t rows, int groups, int per_group, int length, float eps) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * kWarpsPerBlock + (threadIdx.x >> 5);
  if (row >= rows) return;  // the whole warp: a warp is one row
  const int n = per_group * length;
  const T* xr = x + row * n;
  T* yr = y + row * n;
  float sum = 0.0f;
  for (int j = lane; j < n; j += 32) sum += static_cast<float>(xr[j]);
  const float mean = warp_sum(sum) / static_cast<float>(n);
  float squares = 0.0f;
  for (int j = lane; j < n; j += 32) {
    const float d = static_cast<float>(xr[j]) - mean;
    squares += d * d;
  }
  const float rstd = rsqrtf(warp_sum(squares) / static_cast<float>(n) + eps);
  const int first_channel = static_cast<int>(row % groups) * per_group;
  for (int j = lane; j < n; j += 32) {
    const int c = first_channel + j / length;
    const float z = (static_cast<float>(xr[j]) - mean) * rstd * weight[c] + bias[c];
    yr[j] = static_cast<T>(mish(z));
  }
  if (lane == 0) {
    mean_out[row] = mean;
    rstd_out[row] = rstd;
  }
}

// With xh the normalised input, z = xh w + b, y = mish(z) and dz = dy mish'(z):
//   d bias_c = sum dz, d weight_c = sum dz xh (over the batch and the tiles; this kernel writes
//   each sample's part, [N, C]), and, per row of n values, with g = dz w:
//   dx = rstd (g - mean(g) - xh mean(g xh)).
template <typename T>
__global__ void backward_kernel(const T* __restrict__ dy, const T* __restrict__ x, const float* __restrict__ weight,
                                const float* __restrict__ bias, const float* __restrict__ mean_in,
                                const float* __restrict__ rstd_in, T* __restrict__ dx, float* __restrict__ dweight_part,
                                float* __restrict__ dbias_part, std::int64_t rows, int groups, int per_group, int length) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * kWarpsPerBlock + (threadIdx.x >> 5);
  if (row >= rows) return;
  const int n = per_group * length;
  const int channels = groups * per_group;
  const std::int64_t sample = row / groups;
  const int first_channel = static_cast<int>(row % groups) * per_group;
  const T* xr = x + row * n;
  const T* dyr = dy + row * n;
  T* dxr = dx + row * n;
  const float mean = mean_in[row];
  const float rstd = rstd_in[row];
  float sum_g = 0.0f, sum_gxh = 0.0f;
  for (int k = 0; k < per_group; ++k) {
    const int c = first_channel + k;
    const float w = weight[c], b = bias[c];
    float dw = 0.0f, db = 0.0f;
    for (int l = lane; l < length; l += 32) {
      const int j = k * length + l;
      const float xh = (static_cast<float>(xr[j]) - mean) * rstd;
      const float dz = static_cast<float>(dyr[j]) * mish_grad(xh * w + b);
      dw += dz * xh;
      db += dz;
    }
    dw = warp_sum(dw);
    db = warp_sum(db);
    sum_g += db * w;
    sum_gxh += dw * w;
    if (lane == 0) {
      dweight_part[sample * channels + c] = dw;
      dbias_part[sample * channels + c] = db;
    }
  }
  const float mean_g = sum_g / static_cast<float>(n);
  const float mean_gxh = sum_gxh / static_cast<float>(n);
  for (int j = lane; j < n; j += 32) {
    const int c = first_channel + j / length;
    const float w = weight[c];
    const float xh = (static_cast<float>(xr[j]) - mean) * rstd;
    const float g = static_cast<float>(dyr[j]) * mish_grad(xh * w + bias[c]) * w;
    dxr[j] = static_cast<T>(rstd * (g - mean_g - xh * mean_gxh));
  }
}

struct Shape {
  std::int64_t batch, channels, length, rows;
  int per_group;
};

Shape shape_of(const at::Tensor& x, std::int64_t groups) {
  TORCH_CHECK(x.dim() >= 2 && x.size(1) % groups == 0, "fused_norm_mish: x must be [N, C, ...] with C a multiple of ", groups);
  const std::int64_t batch = x.size(0), channels = x.size(1);
  const std::int64_t length = batch * channels == 0 ? 0 : x.numel() / (batch * channels);
  return {batch, channels, length, batch * groups, static_cast<int>(channels / groups)};
}

unsigned blocks_for(std::int64_t rows) { return static_cast<unsigned>((rows + kWarpsPerBlock - 1) / kWarpsPerBlock); }

}  // namespace

std::tuple<at::Tensor, at::Tensor, at::Tensor> fused_norm_mish_cuda_forward(const at::Tensor& x_in, const at::Tensor& weight_in,
                                                                            const at::Tensor& bias_in, std::int64_t groups,
                                                                            double eps) {
  const c10::cuda::CUDAGuard guard(x_in.device());
  const auto x = x_in.contiguous();
  const auto weight = weight_in.to(at::kFloat).contiguous();
  const auto bias = bias_in.to(at::kFloat).contiguous();
  const Shape s = shape_of(x, groups);
  auto y = at::empty_like(x, at::MemoryFormat::Contiguous);
  auto mean = at::empty({s.batch, groups}, x.options().dtype(at::kFloat));
  auto rstd = at::empty({s.batch, groups}, x.options().dtype(at::kFloat));
  if (s.rows == 0 || s.length == 0) return {y, mean, rstd};
  const auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kBFloat16, at::kHalf, x.scalar_type(), "fused_norm_mish_forward", [&] {
    forward_kernel<scalar_t><<<blocks_for(s.rows), kWarpsPerBlock * 32, 0, stream>>>(
        x.const_data_ptr<scalar_t>(), weight.const_data_ptr<float>(), bias.const_data_ptr<float>(),
        y.mutable_data_ptr<scalar_t>(), mean.mutable_data_ptr<float>(), rstd.mutable_data_ptr<float>(), s.rows,
        static_cast<int>(groups), s.per_group, static_cast<int>(s.length), static_cast<float>(eps));
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {y, mean, rstd};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> fused_norm_mish_cuda_backward(const at::Tensor& dy_in, const at::Tensor& x_in,
                                                                             const at::Tensor& weight_in,
                                                                             const at::Tensor& bias_in, const at::Tensor& mean,
                                                                             const at::Tensor& rstd, std::int64_t groups) {
  const c10::cuda::CUDAGuard guard(x_in.device());
  const auto x = x_in.contiguous();
  const auto dy = dy_in.to(x.scalar_type()).contiguous();
  const auto weight = weight_in.to(at::kFloat).contiguous();
  const auto bias = bias_in.to(at::kFloat).contiguous();
  const Shape s = shape_of(x, groups);
  auto dx = at::empty_like(x, at::MemoryFormat::Contiguous);
  const auto mean_c = mean.contiguous();
  const auto rstd_c = rstd.contiguous();
  // d weight and d bias per sample (every entry written by the kernel), summed over the batch.
  auto parts = at::empty({2, s.batch, s.channels}, x.options().dtype(at::kFloat));
  if (s.rows == 0 || s.length == 0) {
    dx.zero_();
    parts.zero_();
    const auto sums = parts.sum(1);
    return {dx, sums[0], sums[1]};
  }
  const auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kBFloat16, at::kHalf, x.scalar_type(), "fused_norm_mish_backward", [&] {
    backward_kernel<scalar_t><<<blocks_for(s.rows), kWarpsPerBlock * 32, 0, stream>>>(
        dy.const_data_ptr<scalar_t>(), x.const_data_ptr<scalar_t>(), weight.const_data_ptr<float>(),
        bias.const_data_ptr<float>(), mean_c.const_data_ptr<float>(), rstd_c.const_data_ptr<float>(),
        dx.mutable_data_ptr<scalar_t>(), parts[0].mutable_data_ptr<float>(), parts[1].mutable_data_ptr<float>(), s.rows,
        static_cast<int>(groups), s.per_group, static_cast<int>(s.length));
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  const auto sums = parts.sum(1);
  return {dx, sums[0], sums[1]};
}

}  // namespace hydra::model::detail
