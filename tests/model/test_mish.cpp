// model::mish, the one-exponential CPU form of Mish, against LibTorch's own mish computed in
// double precision: values and gradients over the whole fp32 range (the linear region above 20,
// the underflow far below 0, infinities and NaN), any tensor length and layout, any chunking.

#include <cmath>
#include <limits>

#include <ATen/Parallel.h>
#include <gtest/gtest.h>
#include <torch/torch.h>

#include "hydra/model/mish.hpp"

namespace hydra::model {
namespace {

// Inputs: a dense sweep of [-100, 100], the edges of the linear region, and extremes.
torch::Tensor sweep() {
  auto grid = torch::linspace(-100.0, 100.0, 200'003, torch::kFloat);
  auto edges = torch::tensor({-1e30F, -88.0F, -20.0F, -1e-30F, 0.0F, 1e-30F, 19.999F, 20.0F, 20.001F, 1e30F});
  return torch::cat({grid, edges});
}

// Largest |got - want| / max(1, |want|).
double error(const torch::Tensor& got, const torch::Tensor& want) {
  const auto w = want.to(torch::kDouble);
  return ((got.to(torch::kDouble) - w).abs() / w.abs().clamp_min(1.0)).max().item<double>();
}

TEST(Mish, MatchesLibTorchInDoubleForwardAndBackward) {
  if (!fast_cpu_mish()) GTEST_SKIP() << "no AVX2 and FMA here: model::mish is LibTorch's own";
  torch::manual_seed(1);
  const auto x = sweep();
  const auto dy = torch::randn(x.sizes(), torch::TensorOptions().dtype(torch::kFloat)) + 0.5;
  const auto xd = x.to(torch::kDouble);
  const double forward = error(model::mish(x), torch::mish(xd));
  const double backward = error(model::mish_backward(dy, x), at::mish_backward(dy.to(torch::kDouble), xd));
  std::printf("model::mish against LibTorch in double: forward %.2e, backward %.2e\n", forward, backward);
  EXPECT_LT(forward, 2e-6);
  EXPECT_LT(backward, 2e-6);
  // Above 20 Mish is the identity and its slope 1, however large x is.
  const auto big = torch::tensor({20.5F, 1e3F, 1e30F});
  EXPECT_TRUE(torch::equal(model::mish(big), big));
  EXPECT_TRUE(torch::equal(model::mish_backward(torch::ones({3}), big), torch::ones({3})));
}

TEST(Mish, InfinityAndNanAsLibTorch) {
  if (!fast_cpu_mish()) GTEST_SKIP() << "no AVX2 and FMA here: model::mish is LibTorch's own";
  const float inf = std::numeric_limits<float>::infinity();
  const auto x = torch::tensor({inf, std::nanf("")});
  const auto y = model::mish(x);
  EXPECT_EQ(y[0].item<float>(), inf);
  EXPECT_TRUE(std::isnan(y[1].item<float>()));
  EXPECT_TRUE(std::isnan(model::mish_backward(torch::ones({2}), x)[1].item<float>()));
}

// The same element gives the same bits wherever it sits: in a length that is not a multiple of
// the eight lanes, in a strided view, at any thread count.
TEST(Mish, EachValueDependsOnlyOnItsElement) {
  if (!fast_cpu_mish()) GTEST_SKIP() << "no AVX2 and FMA here: model::mish is LibTorch's own";
  torch::manual_seed(2);
  const auto x = torch::randn({3, 50'001}) * 6;
  const auto whole = model::mish(x);
  for (const int offset : {1, 3, 7, 8, 9})
    EXPECT_TRUE(torch::equal(model::mish(x.narrow(1, offset, 50'001 - offset)), whole.narrow(1, offset, 50'001 - offset)))
        << offset;
  EXPECT_TRUE(torch::equal(model::mish(x.t()), whole.t()));
  const int threads = at::get_num_threads();
  at::set_num_threads(1);
  const auto one = model::mish(x);
  const auto one_grad = model::mish_backward(x, x);
  at::set_num_threads(threads);
  EXPECT_TRUE(torch::equal(one, whole));
  EXPECT_TRUE(torch::equal(one_grad, model::mish_backward(x, x)));
}

// Through autograd: the gradient is mish_backward's, within fp32 of LibTorch's; without a
// gradient the result is the same tensor of values.
TEST(Mish, AutogradGivesTheBackwardKernel) {
  torch::manual_seed(3);
  const auto x0 = torch::randn({16, 64, 34}) * 4;
  const auto dy = torch::randn({16, 64, 34});
  auto x = x0.clone().requires_grad_();
  const auto y = model::mish(x);
  y.backward(dy);
  EXPECT_TRUE(torch::equal(x.grad(), model::mish_backward(dy, x0)));
  auto xr = x0.clone().requires_grad_();
  torch::mish(xr).backward(dy);
  EXPECT_LT(error(x.grad(), xr.grad()), 2e-6);
  torch::NoGradGuard no_grad;
  EXPECT_TRUE(torch::equal(model::mish(x0), y.detach()));
}

}  // namespace
}  // namespace hydra::model
