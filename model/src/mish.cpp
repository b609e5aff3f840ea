#include "hydra/model/mish.hpp"

#include <algorithm>
#include <cstdint>

#include <ATen/Parallel.h>

#if defined(__x86_64__) && defined(__GLIBC__)
#include <immintrin.h>
#define HYDRA_MISH_AVX2 1
// glibc's libmvec: expf on eight lanes, the x86-64 vector function ABI's AVX2 variant ("d", not
// masked, 8 lanes, one vector argument). libm's linker script links libmvec as needed.
extern "C" __attribute__((target("avx2,fma"))) __m256 _ZGVdN8v_expf(__m256);
#else
#define HYDRA_MISH_AVX2 0
#endif

namespace hydra::model {
namespace {

constexpr float kLinear = 20.F;  // above this, tanh(softplus(x)) is 1 in fp32

#if HYDRA_MISH_AVX2
struct Parts {
  __m256 w;  // e^min(x, 20)
  __m256 q;  // w (w + 2)
};

__attribute__((target("avx2,fma"))) inline Parts parts(__m256 x) {
  const __m256 w = _ZGVdN8v_expf(_mm256_min_ps(x, _mm256_set1_ps(kLinear)));
  return {w, _mm256_mul_ps(w, _mm256_add_ps(w, _mm256_set1_ps(2.F)))};
}

__attribute__((target("avx2,fma"))) inline __m256 forward8(__m256 x) {
  const auto [w, q] = parts(x);
  return _mm256_mul_ps(x, _mm256_div_ps(q, _mm256_add_ps(q, _mm256_set1_ps(2.F))));
}

__attribute__((target("avx2,fma"))) inline __m256 backward8(__m256 dy, __m256 x) {
  const auto [w, q] = parts(x);
  const __m256 q2 = _mm256_add_ps(q, _mm256_set1_ps(2.F));
  const __m256 t = _mm256_div_ps(q, q2);
  // 4 w (w + 1) / (q + 2)^2
  const __m256 slope = _mm256_div_ps(_mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(4.F), w), _mm256_add_ps(w, _mm256_set1_ps(1.F))),
                                     _mm256_mul_ps(q2, q2));
  __m256 d = _mm256_fmadd_ps(x, slope, t);
  // Linear above 20 (x * slope would grow with x there); NaN compares false and stays NaN.
  d = _mm256_blendv_ps(d, _mm256_set1_ps(1.F), _mm256_cmp_ps(x, _mm256_set1_ps(kLinear), _CMP_GT_OQ));
  return _mm256_mul_ps(dy, d);
}

// The last n % 8 elements go through the same eight-lane code on a zero-padded copy, so an
// element's value never depends on where a chunk ends.
struct Padded {
  alignas(32) float a[8] = {};
  alignas(32) float b[8] = {};
  alignas(32) float out[8] = {};
};

__attribute__((target("avx2,fma"))) void forward_avx2(const float* x, float* y, std::int64_t n) {
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, forward8(_mm256_loadu_ps(x + i)));
  if (i == n) return;
  Padded p;
  std::copy(x + i, x + n, p.a);
  _mm256_store_ps(p.out, forward8(_mm256_load_ps(p.a)));
  std::copy_n(p.out, n - i, y + i);
}

__attribute__((target("avx2,fma"))) void backward_avx2(const float* dy, const float* x, float* dx, std::int64_t n) {
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(dx + i, backward8(_mm256_loadu_ps(dy + i), _mm256_loadu_ps(x + i)));
  if (i == n) return;
  Padded p;
  std::copy(dy + i, dy + n, p.a);
  std::copy(x + i, x + n, p.b);
  _mm256_store_ps(p.out, backward8(_mm256_load_ps(p.a), _mm256_load_ps(p.b)));
  std::copy_n(p.out, n - i, dx + i);
}

constexpr std::int64_t kGrain = 16384;  // elements per intra-op task

torch::Tensor fast_forward(const torch::Tensor& x_in) {
  const auto x = x_in.contiguous();
  auto y = torch::empty_like(x, torch::MemoryFormat::Contiguous);
  const float* src = x.const_data_ptr<float>();
  float* dst = y.mutable_data_ptr<float>();
  at::parallel_for(0, x.numel(), kGrain,
                   [&](std::int64_t begin, std::int64_t end) { forward_avx2(src + begin, dst + begin, end - begin); });
  return y;
}

torch::Tensor fast_backward(const torch::Tensor& dy_in, const torch::Tensor& x_in) {
  const auto x = x_in.contiguous();
  const auto dy = dy_in.contiguous();
  auto dx = torch::empty_like(x, torch::MemoryFormat::Contiguous);
  const float* g = dy.const_data_ptr<float>();
  const float* src = x.const_data_ptr<float>();
  float* dst = dx.mutable_data_ptr<float>();
  at::parallel_for(0, x.numel(), kGrain, [&](std::int64_t begin, std::int64_t end) {
    backward_avx2(g + begin, src + begin, dst + begin, end - begin);
  });
  return dx;
}

class Mish : public torch::autograd::Function<Mish> {
 public:
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x) {
    ctx->save_for_backward({x});
    return fast_forward(x);
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    return {fast_backward(grads[0], ctx->get_saved_variables()[0])};
  }
};

bool takes_fast_path(const torch::Tensor& x) {
  return fast_cpu_mish() && x.device().is_cpu() && x.scalar_type() == torch::kFloat;
}
#endif

}  // namespace

bool fast_cpu_mish() {
#if HYDRA_MISH_AVX2
  static const bool supported = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return supported;
#else
  return false;
#endif
}

torch::Tensor mish(const torch::Tensor& x) {
#if HYDRA_MISH_AVX2
  if (takes_fast_path(x))
    return x.requires_grad() && torch::GradMode::is_enabled() ? Mish::apply(x) : fast_forward(x);
#endif
  return torch::mish(x);
}

torch::Tensor mish_backward(const torch::Tensor& dy, const torch::Tensor& x) {
#if HYDRA_MISH_AVX2
  if (takes_fast_path(x) && dy.scalar_type() == torch::kFloat && dy.sizes() == x.sizes()) return fast_backward(dy, x);
#endif
  return at::mish_backward(dy, x);
}

}  // namespace hydra::model
