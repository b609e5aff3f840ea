#pragma once

// Mish's eight-lane AVX2 form (mish.hpp), shared by model::mish and the bf16 CPU forward
// (cpu_bf16.cpp): one exponential, tanh(softplus(x)) = q / (q + 2) with q = w (w + 2), w = e^x.

#if defined(__x86_64__) && defined(__GLIBC__)
#include <immintrin.h>
#define HYDRA_MISH_AVX2 1
// glibc's libmvec: expf on eight lanes, the x86-64 vector function ABI's AVX2 variant ("d", not
// masked, 8 lanes, one vector argument). libm's linker script links libmvec as needed.
extern "C" __attribute__((target("avx2,fma"))) __m256 _ZGVdN8v_expf(__m256);
#else
#define HYDRA_MISH_AVX2 0
#endif

namespace hydra::model::detail {

inline constexpr float kMishLinear = 20.F;  // above this, tanh(softplus(x)) is 1 in fp32

#if HYDRA_MISH_AVX2
struct MishParts {
  __m256 w;  // e^min(x, 20)
  __m256 q;  // w (w + 2)
};

__attribute__((target("avx2,fma"))) inline MishParts mish_parts(__m256 x) {
  const __m256 w = _ZGVdN8v_expf(_mm256_min_ps(x, _mm256_set1_ps(kMishLinear)));
  return {w, _mm256_mul_ps(w, _mm256_add_ps(w, _mm256_set1_ps(2.F)))};
}

__attribute__((target("avx2,fma"))) inline __m256 mish8(__m256 x) {
  const auto [w, q] = mish_parts(x);
  return _mm256_mul_ps(x, _mm256_div_ps(q, _mm256_add_ps(q, _mm256_set1_ps(2.F))));
}
#endif

}  // namespace hydra::model::detail
