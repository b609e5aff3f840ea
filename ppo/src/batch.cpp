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

}  // namespace

RolloutTensors RolloutTensors::to(const torch::Device& device) const {
  RolloutTensors r;
  const auto move = [&](const torch::Tensor& t) { return t.defined() ? t.to(device) : t; };
  r.obs = move(obs);
  r.context = move(context);
  r.legal = move(legal);
  r.action = move(action);
  r.logp = move(logp);
  r.value = move(value);
  r.advantage = move(advantage);
  r.returns = move(returns);
  r.tenpai = move(tenpai);
  r.danger = move(danger);
  r.priv = move(priv);
  return r;
}

RolloutTensors RolloutTensors::select(const torch::Tensor& index) const {
  RolloutTensors r;
  const auto pick = [&](const torch::Tensor& t) { return t.defined() ? t.index_select(0, index) : t; };
  r.obs = pick(obs);
  r.context = pick(context);
  r.legal = pick(legal);
  r.action = pick(action);
  r.logp = pick(logp);
  r.value = pick(value);
  r.advantage = pick(advantage);
  r.returns = pick(returns);
  r.tenpai = pick(tenpai);
  r.danger = pick(danger);
  r.priv = pick(priv);
  return r;
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
  // Bit 63 of a legal or wait mask is never set (46 actions, 34 tiles), so int64 reads the same.
  const auto legal_bits = wrap(rollout.legal, {rows, 1}, torch::kLong);
  const auto one = torch::ones({model::kActions}, torch::kLong);
  t.legal = legal_bits.bitwise_and(one.bitwise_left_shift(torch::arange(model::kActions, torch::kLong))).ne(0);
  t.action = wrap(rollout.action, {rows}, torch::kInt16).to(torch::kLong);
  t.logp = wrap(rollout.logp, {rows}, torch::kFloat).clone();
  t.value = wrap(rollout.value, {rows}, torch::kFloat).clone();
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
