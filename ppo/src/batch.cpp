#include <cstddef>
#include <vector>

#include "hydra/encoder/layout.hpp"
#include "hydra/encoder/privileged.hpp"
#include "hydra/ppo/batch.hpp"
#include "hydra/ppo/loss.hpp"

namespace hydra::ppo {
namespace {

template <class T>
torch::Tensor wrap(const std::vector<T>& v, at::IntArrayRef shape, torch::ScalarType type) {
  // from_blob does not own the memory and never writes it; the callers copy before returning.
  return torch::from_blob(const_cast<T*>(v.data()), shape, torch::TensorOptions().dtype(type));
}

// Every field of `in` through f (an undefined tensor, priv without privileged planes, stays
// undefined): the one list of the fields that to() and select() share.
template <class F>
RolloutTensors map_fields(const RolloutTensors& in, F f) {
  static constexpr torch::Tensor RolloutTensors::*kFields[] = {
      &RolloutTensors::obs,       &RolloutTensors::context, &RolloutTensors::legal,  &RolloutTensors::action,
      &RolloutTensors::logp,      &RolloutTensors::value,   &RolloutTensors::advantage,
      &RolloutTensors::returns,   &RolloutTensors::tenpai,  &RolloutTensors::danger, &RolloutTensors::priv,
      &RolloutTensors::action_advantage, &RolloutTensors::old_probs, &RolloutTensors::weight};
  RolloutTensors r;
  for (const auto field : kFields) r.*field = (in.*field).defined() ? f(in.*field) : in.*field;
  return r;
}

}  // namespace

RolloutTensors RolloutTensors::to(const torch::Device& device) const {
  return map_fields(*this, [&](const torch::Tensor& t) { return t.to(device); });
}

RolloutTensors RolloutTensors::select(const torch::Tensor& index) const {
  return map_fields(*this, [&](const torch::Tensor& t) { return t.index_select(0, index); });
}

torch::Tensor action_masks(const std::vector<std::uint64_t>& bits) {
  // Bit 63 of a mask is never set (46 actions), so int64 reads the same.
  const auto masks = wrap(bits, {static_cast<std::int64_t>(bits.size()), 1}, torch::kLong);
  const auto one = torch::ones({model::kActions}, torch::kLong);
  return masks.bitwise_and(one.bitwise_left_shift(torch::arange(model::kActions, torch::kLong))).ne(0);
}

RolloutTensors rollout_tensors(const selfplay::Rollout& rollout) {
  rollout.check();  // lengths, whole episodes, every action legal
  const std::size_t n = rollout.size();
  const auto rows = static_cast<std::int64_t>(n);
  RolloutTensors t;
  // binary16 -> float is exact, so this equals selfplay::from_half element by element.
  t.obs = wrap(rollout.obs, {rows, encoder::kChannels, encoder::kTiles}, torch::kInt16)
              .view(torch::kHalf)
              .to(torch::kFloat);
  t.context = wrap(rollout.context, {rows, selfplay::kContext}, torch::kFloat).clone();
  t.legal = action_masks(rollout.legal);
  t.action = wrap(rollout.action, {rows}, torch::kInt16).to(torch::kLong);
  t.logp = wrap(rollout.logp, {rows}, torch::kFloat).clone();
  t.value = wrap(rollout.value, {rows}, torch::kFloat).clone();
  // Bit 63 of a wait mask is never set (34 tiles), so int64 reads the same.
  const auto waits = wrap(rollout.opp_waits, {rows, selfplay::kOpponents}, torch::kLong);
  t.tenpai = tenpai_labels(waits);
  t.danger = danger_labels(waits);
  if (!rollout.priv.empty())
    t.priv = wrap(rollout.priv, {rows, encoder::kPrivilegedChannels, encoder::kTiles}, torch::kInt16)
                 .view(torch::kHalf)
                 .to(torch::kFloat);
  return t;
}

}  // namespace hydra::ppo
