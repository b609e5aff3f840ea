#pragma once

// Mish, x * tanh(softplus(x)), the activation of every Hydra network, with a CPU form that costs
// one exponential instead of three transcendentals.
//
// tanh(log(1 + w)) with w = e^x is q / (q + 2), q = w (w + 2); its derivative gives
// mish'(x) = t + x * 4 w (w + 1) / (q + 2)^2 with t = q / (q + 2). For x > 20, t is 1 in fp32,
// so mish(x) = x and mish'(x) = 1 there (the exponential is taken of min(x, 20): no overflow).
// On an x86-64 CPU with AVX2 and FMA, fp32 tensors go through glibc's vector expf (libmvec, eight
// lanes), forward and backward, split over LibTorch's intra-op threads; each element's value
// depends only on that element, so the thread count and the chunking change no number. Every
// other tensor (CUDA, bf16, double, a CPU without AVX2) runs LibTorch's own mish.
// ATen's AVX2 mish costs 39 ms for 4.5 M floats on one core of the development machine (its tanh
// alone 31 ms); this form about 3 ms (docs/MODEL.md "Mish on the CPU").

#include <torch/torch.h>

namespace hydra::model {

// Mish of x, differentiable once (the backward is a kernel, not a graph: no double backward).
torch::Tensor mish(const torch::Tensor& x);

// dy * mish'(x), for autograd functions that fuse Mish into a larger backward.
torch::Tensor mish_backward(const torch::Tensor& dy, const torch::Tensor& x);

// Whether fp32 CPU tensors take the one-exponential form on this machine.
bool fast_cpu_mish();

}  // namespace hydra::model
