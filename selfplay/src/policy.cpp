// The torch-free parts of policy.hpp: the score context, the masked softmax and the linear test
// policy.

#include "hydra/selfplay/policy.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

#include "hydra/common/error.hpp"
#include "hydra/game/rng.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/selfplay/rollout.hpp"
#include "hydra/common/index.hpp"

namespace hydra::selfplay {

std::array<double, kActions> tempered_weights(const float* probs, game::ActionMask legal, double inv_t) {
  std::array<double, kActions> wts{};
  for (int a = 0; a < kActions; ++a) {
    if (!legal.test(game::Action(a)) || !(probs[a] > 0.0f)) continue;
    wts[ix(a)] = inv_t == 1.0 ? static_cast<double>(probs[a]) : std::pow(static_cast<double>(probs[a]), inv_t);
  }
  return wts;
}

int sample_action(const float* probs, game::ActionMask legal, double inv_t, double u) {
  const std::array<double, kActions> wts = tempered_weights(probs, legal, inv_t);
  double total = 0;
  int last = -1;
  for (int a = 0; a < kActions; ++a) {
    if (!legal.test(game::Action(a)) || !(probs[a] > 0.0f)) continue;
    total += wts[ix(a)];
    last = a;
  }
  HYDRA_CHECK(last >= 0, "selfplay: the policy gave no legal action a positive probability");
  const double target = u * total;
  double acc = 0;
  for (int a = 0; a < kActions; ++a) {
    if (wts[ix(a)] <= 0) continue;
    acc += wts[ix(a)];
    if (target < acc) return a;
  }
  return last;  // rounding left u * total at the very end
}

double sampled_log_prob(const float* probs, game::ActionMask legal, double inv_t, int action) {
  const auto p = [&](int a) { return static_cast<double>(probs[a]); };
  if (inv_t == 1.0) return std::log(p(action));
  // In logs, relative to the largest weight, so that p^(1/T) cannot underflow at small T.
  double max_log = -INFINITY;
  for (int a = 0; a < kActions; ++a)
    if (legal.test(game::Action(a)) && probs[a] > 0.0f) max_log = std::max(max_log, inv_t * std::log(p(a)));
  double sum = 0;
  for (int a = 0; a < kActions; ++a)
    if (legal.test(game::Action(a)) && probs[a] > 0.0f) sum += std::exp(inv_t * std::log(p(a)) - max_log);
  return inv_t * std::log(p(action)) - max_log - std::log(sum);
}

void masked_softmax(const float* logits, game::ActionMask legal, float* probs) {
  HYDRA_CHECK(!legal.empty(), "masked_softmax: no legal action");
  float max = -INFINITY;
  for (int a = 0; a < kActions; ++a)
    if (legal.test(game::Action(a))) max = std::max(max, logits[a]);
  double sum = 0;
  for (int a = 0; a < kActions; ++a) {
    const float e = legal.test(game::Action(a)) ? std::exp(logits[a] - max) : 0.0f;
    probs[a] = e;
    sum += e;
  }
  const auto inv = static_cast<float>(1.0 / sum);
  for (int a = 0; a < kActions; ++a) probs[a] *= inv;
}

namespace {
constexpr int kFeatures = encoder::kChannels;
}

LinearTestPolicy::LinearTestPolicy(std::uint64_t seed, std::int64_t version)
    : w_(static_cast<std::size_t>(kActions * kFeatures)), b_(kActions), v_(kFeatures), version_(version) {
  game::Xoshiro256ss rng(game::stream_key(game::MasterSeed{seed}, game::labels::network_init));
  const auto uniform = [&] { return static_cast<float>(rng.uniform01() * 2.0 - 1.0); };
  for (float& x : w_) x = uniform() * 0.5f;
  for (float& x : b_) x = uniform();
  for (float& x : v_) x = uniform() * 0.1f;
}

void LinearTestPolicy::evaluate(const PolicyBatch& in, PolicyOutput out) {
  std::array<float, kFeatures> f{};
  std::array<float, kActions> logits{};
  for (int i = 0; i < in.n; ++i) {
    const float* o = in.obs + static_cast<std::ptrdiff_t>(i) * encoder::kObsSize;
    for (int c = 0; c < kFeatures; ++c) {
      float s = 0;
      for (int t = 0; t < encoder::kTiles; ++t) s += o[c * encoder::kTiles + t];
      f[ix(c)] = s;
    }
    const float* ctx = in.context + static_cast<std::ptrdiff_t>(i) * kContext;
    float v = ctx[0];
    for (int c = 0; c < kFeatures; ++c) v += v_[ix(c)] * f[ix(c)];
    for (int a = 0; a < kActions; ++a) {
      float z = b_[ix(a)];
      const float* w = w_.data() + static_cast<std::ptrdiff_t>(a) * kFeatures;
      for (int c = 0; c < kFeatures; ++c) z += w[c] * f[ix(c)] * 0.05f;
      logits[ix(a)] = z;
    }
    masked_softmax(logits.data(), in.legal[i], out.probs + static_cast<std::ptrdiff_t>(i) * kActions);
    out.value[i] = std::tanh(v);
  }
  rows_.fetch_add(in.n, std::memory_order_relaxed);
}

}  // namespace hydra::selfplay
