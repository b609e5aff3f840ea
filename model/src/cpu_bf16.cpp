#include "hydra/model/cpu_bf16.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <ATen/Parallel.h>
#include <c10/util/BFloat16.h>

#include "hydra/common/error.hpp"
#include "hydra/model/mish.hpp"

namespace hydra::model {
namespace {

constexpr auto kChannelsLast = torch::MemoryFormat::ChannelsLast;
using bf16 = c10::BFloat16;

#if defined(__x86_64__) && defined(__GLIBC__)
#define HYDRA_BF16_KERNELS 1
#define HYDRA_AVX512 __attribute__((target("avx512f,fma")))
// glibc's libmvec: expf on sixteen lanes, the x86-64 vector function ABI's AVX-512 variant ("e",
// not masked, 16 lanes, one vector argument). libm's linker script links libmvec as needed.
extern "C" HYDRA_AVX512 __m512 _ZGVeN16v_expf(__m512);

HYDRA_AVX512 inline __m512 load16(const float* p) { return _mm512_loadu_ps(p); }

HYDRA_AVX512 inline __m512 load16(const bf16* p) {
  const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

// Round to nearest even, as c10::BFloat16(float) does for finite values.
HYDRA_AVX512 inline void store16(bf16* p, __m512 v) {
  const __m512i u = _mm512_castps_si512(v);
  const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
  const __m512i r = _mm512_srli_epi32(_mm512_add_epi32(u, _mm512_add_epi32(odd, _mm512_set1_epi32(0x7FFF))), 16);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm512_cvtepi32_epi16(r));
}

// Mish in model::mish's one-exponential form, x q / (q + 2) with q = w (w + 2), w = e^min(x, 20),
// the division by a 14-bit reciprocal: the result is rounded to bf16's 8 bits next. Above 20 it is
// x (q / (q + 2) is 1 to the reciprocal's precision); NaN stays NaN.
HYDRA_AVX512 inline __m512 mish16(__m512 x) {
  const __m512 w = _ZGVeN16v_expf(_mm512_min_ps(x, _mm512_set1_ps(20.F)));
  const __m512 q = _mm512_mul_ps(w, _mm512_add_ps(w, _mm512_set1_ps(2.F)));
  return _mm512_mul_ps(x, _mm512_mul_ps(q, _mm512_rcp14_ps(_mm512_add_ps(q, _mm512_set1_ps(2.F)))));
}

// Samples [b0, b1) of x [B, T, C] (C a multiple of 16 and of `groups`): y = Mish(GroupNorm(x)).
// The statistics of a group (its C / groups channels over all T tiles) are two passes in fp32
// per channel and a sum over the group's channels in double.
template <class In>
HYDRA_AVX512 void norm_mish_rows(const In* x, bf16* y, std::int64_t b0, std::int64_t b1, std::int64_t T,
                                 std::int64_t C, std::int64_t groups, const float* weight, const float* bias,
                                 float eps) {
  const auto channels = static_cast<std::size_t>(C);
  std::vector<float> acc(channels), centre(channels), scale(channels), shift(channels);
  std::vector<float> mean(static_cast<std::size_t>(groups)), var(static_cast<std::size_t>(groups));
  const std::int64_t per = C / groups;
  const double n = static_cast<double>(T * per);
  const auto group_means = [&](std::vector<float>& out) {
    for (std::int64_t g = 0; g < groups; ++g) {
      double s = 0;
      for (std::int64_t c = g * per; c < (g + 1) * per; ++c) s += acc[static_cast<std::size_t>(c)];
      out[static_cast<std::size_t>(g)] = static_cast<float>(s / n);
    }
  };
  for (std::int64_t b = b0; b < b1; ++b) {
    const In* xb = x + b * T * C;
    std::fill(acc.begin(), acc.end(), 0.F);
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t c = 0; c < C; c += 16)
        _mm512_storeu_ps(acc.data() + c, _mm512_add_ps(_mm512_loadu_ps(acc.data() + c), load16(xb + t * C + c)));
    group_means(mean);
    for (std::int64_t c = 0; c < C; ++c) centre[static_cast<std::size_t>(c)] = mean[static_cast<std::size_t>(c / per)];
    std::fill(acc.begin(), acc.end(), 0.F);
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t c = 0; c < C; c += 16) {
        const __m512 d = _mm512_sub_ps(load16(xb + t * C + c), _mm512_loadu_ps(centre.data() + c));
        _mm512_storeu_ps(acc.data() + c, _mm512_fmadd_ps(d, d, _mm512_loadu_ps(acc.data() + c)));
      }
    group_means(var);
    for (float& v : var) v = 1.F / std::sqrt(v + eps);  // each group's 1 / standard deviation
    for (std::int64_t c = 0; c < C; ++c) {
      const auto g = static_cast<std::size_t>(c / per);
      const auto i = static_cast<std::size_t>(c);
      scale[i] = var[g] * weight[c];
      shift[i] = bias[c] - mean[g] * scale[i];
    }
    bf16* yb = y + b * T * C;
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t c = 0; c < C; c += 16) {
        const __m512 z = _mm512_fmadd_ps(load16(xb + t * C + c), _mm512_loadu_ps(scale.data() + c),
                                         _mm512_loadu_ps(shift.data() + c));
        store16(yb + t * C + c, mish16(z));
      }
  }
}

// Mean and max over the T tiles of h [B, T, C] for samples [b0, b1): mean, max [B, C].
HYDRA_AVX512 void pool_rows(const bf16* h, float* mean, float* max, std::int64_t b0, std::int64_t b1, std::int64_t T,
                            std::int64_t C) {
  const __m512 inv = _mm512_set1_ps(1.F / static_cast<float>(T));
  for (std::int64_t b = b0; b < b1; ++b)
    for (std::int64_t c = 0; c < C; c += 16) {
      __m512 s = _mm512_setzero_ps();
      __m512 m = load16(h + b * T * C + c);
      for (std::int64_t t = 0; t < T; ++t) {
        const __m512 v = load16(h + (b * T + t) * C + c);
        s = _mm512_add_ps(s, v);
        m = _mm512_max_ps(m, v);
      }
      _mm512_storeu_ps(mean + b * C + c, _mm512_mul_ps(s, inv));
      _mm512_storeu_ps(max + b * C + c, m);
    }
}

// x += h * gate over samples [b0, b1): x fp32 and h bf16 [B, T, C], gate [B, C].
HYDRA_AVX512 void residual_rows(float* x, const bf16* h, const float* gate, std::int64_t b0, std::int64_t b1,
                                std::int64_t T, std::int64_t C) {
  for (std::int64_t b = b0; b < b1; ++b)
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t c = 0; c < C; c += 16) {
        float* px = x + (b * T + t) * C + c;
        _mm512_storeu_ps(px, _mm512_fmadd_ps(load16(h + (b * T + t) * C + c), _mm512_loadu_ps(gate + b * C + c),
                                             _mm512_loadu_ps(px)));
      }
}
#undef HYDRA_AVX512
#else
#define HYDRA_BF16_KERNELS 0
#endif

constexpr std::int64_t kGrain = 8;  // samples per intra-op task

// A Conv1d weight [O, I, k] as a bf16 channels-last [O, I, 1, k] kernel.
torch::Tensor conv_kernel(const torch::nn::Conv1d& conv) {
  return conv->weight.detach().unsqueeze(2).to(torch::kBFloat16).contiguous(kChannelsLast);
}

torch::Tensor conv(const torch::Tensor& x, const torch::Tensor& kernel, const torch::Tensor& bias = {}) {
  const auto k = kernel.size(3);
  const std::array<std::int64_t, 2> stride{1, 1}, padding{0, k / 2};
  return at::conv2d(x, kernel, bias, stride, padding).contiguous(kChannelsLast);
}

// [B, C, 1, T] channels last: [B, T, C] in memory.
torch::Tensor empty_nwc(std::int64_t b, std::int64_t c, std::int64_t t, torch::ScalarType type) {
  return torch::empty({b, c, 1, t}, torch::TensorOptions().dtype(type).memory_format(kChannelsLast));
}

}  // namespace

bool CpuBf16Net::supported() {
#if HYDRA_BF16_KERNELS
  static const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
  return avx512;
#else
  return false;
#endif
}

CpuBf16Net::CpuBf16Net(const HydraNetImpl& net) {
  if (!supported())
    throw Error("model.cpu_bf16_inference: this CPU lacks AVX-512, which the bf16 CPU forward needs (every CPU with "
                "bf16 matrix units has it)");
  const auto norm = [](const torch::nn::GroupNorm& g) {
    return Norm{g->weight.detach(), g->bias.detach(), g->options.eps(), g->options.num_groups()};
  };
  stem_ = conv_kernel(net.stem);
  for (const auto& m : *net.blocks) {
    const auto& b = *m->as<SEResBlockImpl>();
    blocks_.push_back({norm(b.norm1), norm(b.norm2), conv_kernel(b.conv1), conv_kernel(b.conv2),
                       b.se_fc1->weight.detach(), b.se_fc1->bias.detach(), b.se_fc2->weight.detach(),
                       b.se_fc2->bias.detach()});
  }
  trunk_norm_ = norm(net.trunk_norm);
  policy_conv_w_ = conv_kernel(net.policy->conv);
  policy_conv_b_ = net.policy->conv->bias.detach().to(torch::kBFloat16);
  policy_fc_w_ = net.policy->fc->weight.detach();
  policy_fc_b_ = net.policy->fc->bias.detach();
  value_w1_ = net.value->fc1->weight.detach();
  value_b1_ = net.value->fc1->bias.detach();
  value_w2_ = net.value->fc2->weight.detach();
  value_b2_ = net.value->fc2->bias.detach();
}

torch::Tensor CpuBf16Net::norm_mish(const torch::Tensor& x, const Norm& n) {
  const auto b = x.size(0), c = x.size(1), t = x.size(3);
  auto y = empty_nwc(b, c, t, torch::kBFloat16);
#if HYDRA_BF16_KERNELS
  const float* w = n.weight.const_data_ptr<float>();
  const float* bias = n.bias.const_data_ptr<float>();
  auto* out = y.mutable_data_ptr<bf16>();
  const auto eps = static_cast<float>(n.eps);
  at::parallel_for(0, b, kGrain, [&](std::int64_t b0, std::int64_t b1) {
    if (x.scalar_type() == torch::kFloat)
      norm_mish_rows(x.const_data_ptr<float>(), out, b0, b1, t, c, n.groups, w, bias, eps);
    else
      norm_mish_rows(x.const_data_ptr<bf16>(), out, b0, b1, t, c, n.groups, w, bias, eps);
  });
#else
  (void)n;
#endif
  return y;
}

torch::Tensor CpuBf16Net::logits_and_values(const torch::Tensor& obs, const torch::Tensor& context) const {
  torch::InferenceMode guard;
  const auto batch = obs.size(0);
  const auto tiles = obs.size(2);
  auto in = empty_nwc(batch, obs.size(1), tiles, torch::kBFloat16);
  in.copy_(obs.unsqueeze(2));
  const auto stem = conv(in, stem_);
  const auto channels = stem.size(1);
  auto x = empty_nwc(batch, channels, tiles, torch::kFloat);  // the residual stream, fp32
  x.copy_(stem);
  auto mean = torch::empty({batch, channels});
  auto max = torch::empty({batch, channels});
  for (const auto& blk : blocks_) {
    auto h = conv(norm_mish(x, blk.norm1), blk.conv1);
    h = conv(norm_mish(h, blk.norm2), blk.conv2);
#if HYDRA_BF16_KERNELS
    at::parallel_for(0, batch, kGrain, [&](std::int64_t b0, std::int64_t b1) {
      pool_rows(h.const_data_ptr<bf16>(), mean.mutable_data_ptr<float>(), max.mutable_data_ptr<float>(), b0, b1, tiles,
                channels);
    });
#endif
    const auto excite = [&](const torch::Tensor& pooled) {
      return at::linear(torch::relu(at::linear(pooled, blk.se_w1, blk.se_b1)), blk.se_w2, blk.se_b2);
    };
    const auto gate = torch::sigmoid(excite(mean) + excite(max)).contiguous();
#if HYDRA_BF16_KERNELS
    at::parallel_for(0, batch, kGrain, [&](std::int64_t b0, std::int64_t b1) {
      residual_rows(x.mutable_data_ptr<float>(), h.const_data_ptr<bf16>(), gate.const_data_ptr<float>(), b0, b1, tiles,
                    channels);
    });
#endif
  }
  const auto latent = norm_mish(x, trunk_norm_);
  // Policy: 1x1 conv in bf16, then Mish and the linear layer in fp32 on [B, P, 34] in the
  // network's own (channel-major) order.
  const auto p = conv(latent, policy_conv_w_, policy_conv_b_).to(torch::kFloat).contiguous();
  const auto logits = at::linear(model::mish(p).view({batch, -1}), policy_fc_w_, policy_fc_b_);
#if HYDRA_BF16_KERNELS
  at::parallel_for(0, batch, kGrain, [&](std::int64_t b0, std::int64_t b1) {
    pool_rows(latent.const_data_ptr<bf16>(), mean.mutable_data_ptr<float>(), max.mutable_data_ptr<float>(), b0, b1,
              tiles, channels);
  });
#endif
  const auto with_context = torch::cat({mean, context.to(torch::kFloat)}, 1);
  const auto value = at::linear(model::mish(at::linear(with_context, value_w1_, value_b1_)), value_w2_, value_b2_);
  return torch::cat({logits, value.reshape({batch, 1})}, 1);
}

}  // namespace hydra::model
