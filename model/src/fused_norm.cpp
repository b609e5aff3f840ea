#include "hydra/model/fused_norm.hpp"

#include <algorithm>
#include <tuple>

#include <ATen/CPUGeneratorImpl.h>

#include "hydra/common/error.hpp"
#include "hydra/model/mish.hpp"

#if HYDRA_WITH_CUDA_KERNELS
#include "fused_norm_cuda.hpp"
#endif

namespace hydra::model {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// The CPU form: the kernels' formulas in LibTorch ops and model::mish, fp32.
torch::Tensor group_rows(const torch::Tensor& x, std::int64_t groups) {  // [N, groups, C / groups x L]
  return x.to(torch::kFloat).reshape({x.size(0), groups, -1});
}

torch::Tensor per_channel(const torch::Tensor& p) { return p.to(torch::kFloat).view({p.size(0), 1}); }

struct Normalised {
  torch::Tensor xh;  // (x - mean) * rstd, fp32, x's shape
  torch::Tensor z;   // xh * weight + bias
};

Normalised normalise(const torch::Tensor& rows, const torch::Tensor& x, const torch::Tensor& weight,
                     const torch::Tensor& bias, const torch::Tensor& mean, const torch::Tensor& rstd) {
  const auto xh = ((rows - mean.unsqueeze(-1)) * rstd.unsqueeze(-1)).view(x.sizes());
  return {xh, xh * per_channel(weight) + per_channel(bias)};
}

std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> cpu_forward(const torch::Tensor& x, const torch::Tensor& weight,
                                                                    const torch::Tensor& bias, std::int64_t groups,
                                                                    double eps) {
  const auto rows = group_rows(x, groups);
  const auto mean = rows.mean(-1);
  const auto rstd = ((rows - mean.unsqueeze(-1)).square().mean(-1) + eps).rsqrt();
  const auto n = normalise(rows, x, weight, bias, mean, rstd);
  return {model::mish(n.z).to(x.scalar_type()), mean, rstd};
}

std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> cpu_backward(const torch::Tensor& dy, const torch::Tensor& x,
                                                                     const torch::Tensor& weight, const torch::Tensor& bias,
                                                                     const torch::Tensor& mean, const torch::Tensor& rstd,
                                                                     std::int64_t groups) {
  const auto n = normalise(group_rows(x, groups), x, weight, bias, mean, rstd);
  const auto dz = model::mish_backward(dy.to(torch::kFloat), n.z);
  const std::vector<std::int64_t> batch_and_tiles{0, 2};
  const auto g = group_rows(dz * per_channel(weight), groups);
  const auto xh = group_rows(n.xh, groups);
  const auto dx = rstd.unsqueeze(-1) * (g - g.mean(-1, true) - xh * (g * xh).mean(-1, true));
  const auto flat = [&](const torch::Tensor& t3) { return t3.reshape({x.size(0), x.size(1), -1}); };
  return {dx.view(x.sizes()).to(x.scalar_type()), flat(dz * n.xh).sum(batch_and_tiles), flat(dz).sum(batch_and_tiles)};
}

#if !HYDRA_WITH_CUDA_KERNELS
[[noreturn]] void no_kernels() {
  throw Error("model.fused_norm: this build has no CUDA kernels of its own (a CUDA LibTorch and nvcc are needed at build time); set model.fused_norm=false");
}
#endif

class FusedNormMish : public torch::autograd::Function<FusedNormMish> {
 public:
  static torch::Tensor forward(AutogradContext* ctx, const torch::Tensor& x, const torch::Tensor& weight,
                               const torch::Tensor& bias, std::int64_t groups, double eps) {
    torch::Tensor y, mean, rstd;
    if (x.is_cuda()) {
#if HYDRA_WITH_CUDA_KERNELS
      std::tie(y, mean, rstd) = detail::fused_norm_mish_cuda_forward(x, weight, bias, groups, eps);
#else
      no_kernels();
#endif
    } else {
      std::tie(y, mean, rstd) = cpu_forward(x, weight, bias, groups, eps);
    }
    ctx->save_for_backward({x, weight, bias, mean, rstd});  // mean and rstd are [N, groups]
    return y;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const auto& x = saved[0];
    const auto& weight = saved[1];
    const auto& bias = saved[2];
    const std::int64_t groups = saved[3].size(1);
    torch::Tensor dx, dweight, dbias;
    if (x.is_cuda()) {
#if HYDRA_WITH_CUDA_KERNELS
      std::tie(dx, dweight, dbias) =
          detail::fused_norm_mish_cuda_backward(grads[0], x, weight, bias, saved[3], saved[4], groups);
#else
      no_kernels();
#endif
    } else {
      std::tie(dx, dweight, dbias) = cpu_backward(grads[0], x, weight, bias, saved[3], saved[4], groups);
    }
    return {dx, dweight.to(weight.scalar_type()), dbias.to(bias.scalar_type()), torch::Tensor(), torch::Tensor()};
  }
};

}  // namespace

torch::Tensor fused_norm_mish(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                              std::int64_t groups, double eps) {
  if (x.dim() < 2 || groups <= 0 || x.size(1) % groups != 0)
    throw Error("fused_norm_mish: input [N, C, ...] with C a multiple of the " + std::to_string(groups) + " groups expected");
  return FusedNormMish::apply(x, weight, bias, groups, eps);
}

torch::Tensor reference_norm_mish(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                  std::int64_t groups, double eps) {
  return torch::mish(torch::group_norm(x, groups, weight, bias, eps));
}

bool fused_norm_kernels() { return HYDRA_WITH_CUDA_KERNELS != 0; }

double fused_norm_error(const torch::Device& device, torch::ScalarType dtype, int batch, int channels, std::uint64_t seed) {
  constexpr std::int64_t kGroups = 32;
  constexpr double kEps = 1e-5;
  const torch::AutoGradMode grad(true);
  auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  const auto on = [&](const torch::Tensor& t) { return t.to(device); };
  const auto x = on(torch::randn({batch, channels, 34}, gen) * 2 + 0.5).to(dtype);
  const auto weight = on(1 + 0.3 * torch::randn({channels}, gen));
  const auto bias = on(0.2 * torch::randn({channels}, gen));
  const auto dy = on(torch::randn({batch, channels, 34}, gen));
  struct Run {
    torch::Tensor y, dx, dweight, dbias;
  };
  const auto run = [&](bool fused) {
    auto xi = (fused ? x : x.to(torch::kFloat)).detach().requires_grad_();
    auto wi = weight.detach().clone().requires_grad_();
    auto bi = bias.detach().clone().requires_grad_();
    auto y = fused ? fused_norm_mish(xi, wi, bi, kGroups, kEps) : reference_norm_mish(xi, wi, bi, kGroups, kEps);
    y.backward(dy.to(y.scalar_type()));
    return Run{y.detach(), xi.grad(), wi.grad(), bi.grad()};
  };
  const Run ref = run(false);
  const Run got = run(true);
  const auto error = [](const torch::Tensor& a, const torch::Tensor& r) {
    return ((a.to(torch::kFloat) - r).abs().max() / r.abs().max().clamp_min(1e-12)).item<double>();
  };
  return std::max({error(got.y, ref.y), error(got.dx, ref.dx), error(got.dweight, ref.dweight),
                   error(got.dbias, ref.dbias)});
}

}  // namespace hydra::model
