// Rollout storage and binary16 conversion (rollout.hpp).

#include "hydra/selfplay/rollout.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <string>

#include "hydra/common/error.hpp"

namespace hydra::selfplay {

std::uint16_t to_half(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const std::uint32_t sign = (x >> 16) & 0x8000U;
  const std::uint32_t exp = (x >> 23) & 0xFFU;
  std::uint32_t mant = x & 0x7FFFFFU;
  if (exp == 0xFFU) return static_cast<std::uint16_t>(sign | 0x7C00U | (mant ? 0x200U : 0U));  // inf / nan
  const int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 31) return static_cast<std::uint16_t>(sign | 0x7C00U);  // overflow: inf
  if (e <= 0) {
    // Subnormal half (or zero): shift the full significand down, rounding to nearest even.
    if (e < -10) return static_cast<std::uint16_t>(sign);
    mant |= 0x800000U;
    const auto shift = static_cast<std::uint32_t>(14 - e);
    std::uint32_t h = mant >> shift;
    const std::uint32_t rem = mant & ((1U << shift) - 1U);
    const std::uint32_t half = 1U << (shift - 1U);
    if (rem > half || (rem == half && (h & 1U))) ++h;
    return static_cast<std::uint16_t>(sign | h);
  }
  std::uint32_t h = (static_cast<std::uint32_t>(e) << 10) | (mant >> 13);
  const std::uint32_t rem = mant & 0x1FFFU;
  if (rem > 0x1000U || (rem == 0x1000U && (h & 1U))) ++h;  // a carry into the exponent is right
  return static_cast<std::uint16_t>(sign | h);
}

float from_half(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000U) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1FU;
  std::uint32_t mant = h & 0x3FFU;
  std::uint32_t x = 0;
  if (exp == 0) {
    if (mant == 0) {
      x = sign;
    } else {  // subnormal: normalise
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while (!(mant & 0x400U));
      x = sign | (static_cast<std::uint32_t>(127 - 15 - e) << 23) | ((mant & 0x3FFU) << 13);
    }
  } else if (exp == 0x1FU) {
    x = sign | 0x7F800000U | (mant << 13);
  } else {
    x = sign | ((exp - 15U + 127U) << 23) | (mant << 13);
  }
  return std::bit_cast<float>(x);
}

void to_half(const float* in, std::uint16_t* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = to_half(in[i]);
}

void round_to_half(float* values, std::uint16_t* bits, std::size_t n) {
  for (std::size_t k = 0; k < n; ++k) {
    // Most planes are 0/1 and exact in binary16: skip the general conversion for them.
    const float v = values[k];
    std::uint16_t h = 0;
    if (v == 1.0f) {
      h = 0x3C00U;
    } else if (v != 0.0f || std::signbit(v)) {
      h = to_half(v);
      values[k] = from_half(h);
    }
    if (bits) bits[k] = h;
  }
}

void from_half(const std::uint16_t* in, float* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = from_half(in[i]);
}

std::vector<game::ActionMask> Rollout::legal_masks() const {
  std::vector<game::ActionMask> out;
  out.reserve(legal.size());
  for (const std::uint64_t bits : legal) out.emplace_back(bits);
  return out;
}

void Rollout::clear() {
  obs.clear();
  context.clear();
  legal.clear();
  action.clear();
  logp.clear();
  value.clear();
  reward.clear();
  done.clear();
  opp_waits.clear();
  version.clear();
  priv.clear();
  paired.clear();
  paired_advantage.clear();
  played_out.clear();
  action_value.clear();
  game.clear();
  seat.clear();
  games = kyoku = all_decisions = 0;
}

void Rollout::reserve(std::size_t n) {
  obs.reserve(n * encoder::kObsSize);
  context.reserve(n * kContext);
  legal.reserve(n);
  action.reserve(n);
  logp.reserve(n);
  value.reserve(n);
  reward.reserve(n);
  done.reserve(n);
  opp_waits.reserve(n * kOpponents);
  version.reserve(n);
  game.reserve(n);
  seat.reserve(n);
}

namespace {
template <class T>
void append_all(std::vector<T>& dst, const std::vector<T>& src) {
  dst.insert(dst.end(), src.begin(), src.end());
}
}  // namespace

void Rollout::append(const Rollout& o) {
  append_all(obs, o.obs);
  append_all(context, o.context);
  append_all(legal, o.legal);
  append_all(action, o.action);
  append_all(logp, o.logp);
  append_all(value, o.value);
  append_all(reward, o.reward);
  append_all(done, o.done);
  append_all(opp_waits, o.opp_waits);
  append_all(version, o.version);
  append_all(priv, o.priv);
  append_all(paired, o.paired);
  append_all(paired_advantage, o.paired_advantage);
  append_all(played_out, o.played_out);
  append_all(action_value, o.action_value);
  append_all(game, o.game);
  append_all(seat, o.seat);
  games += o.games;
  kyoku += o.kyoku;
  all_decisions += o.all_decisions;
}

void Rollout::check() const {
  const std::size_t n = size();
  HYDRA_CHECK(obs.size() == n * encoder::kObsSize, "rollout: obs has " + std::to_string(obs.size()) + " values for " + std::to_string(n) + " decisions");
  HYDRA_CHECK(context.size() == n * kContext, "rollout: context length");
  HYDRA_CHECK(legal.size() == n && logp.size() == n && value.size() == n && reward.size() == n &&
                  done.size() == n && version.size() == n,
              "rollout: per-decision arrays differ in length");
  HYDRA_CHECK(opp_waits.size() == n * kOpponents, "rollout: opp_waits length");
  HYDRA_CHECK((game.empty() || game.size() == n) && (seat.empty() || seat.size() == n), "rollout: game / seat length");
  HYDRA_CHECK(priv.empty() || priv.size() == n * encoder::kPrivilegedSize, "rollout: priv length");
  HYDRA_CHECK((paired.empty() && paired_advantage.empty()) || (paired.size() == n && paired_advantage.size() == n),
              "rollout: paired / paired_advantage length");
  HYDRA_CHECK((played_out.empty() && action_value.empty()) ||
                  (played_out.size() == n && action_value.size() == n * kActions),
              "rollout: played_out / action_value length");
  HYDRA_CHECK(n == 0 || done[n - 1] == 1, "rollout: the last decision does not end an episode");
  for (std::size_t i = 0; i < n; ++i) {
    HYDRA_CHECK(action[i] >= 0 && action[i] < kActions && ((legal[i] >> action[i]) & 1U),
                "rollout: decision " + std::to_string(i) + " took action " + std::to_string(action[i]) + ", not legal");
    HYDRA_CHECK(done[i] <= 1, "rollout: done must be 0 or 1");
    HYDRA_CHECK(played_out.empty() || (played_out[i] & ~legal[i]) == 0,
                "rollout: decision " + std::to_string(i) + " played out an action that is not legal");
  }
}

}  // namespace hydra::selfplay
