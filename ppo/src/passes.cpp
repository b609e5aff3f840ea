// The learner's passes over a rollout's tensors (passes.hpp).

#include "passes.hpp"

#include <numeric>
#include <span>
#include <vector>

#include "hydra/common/index.hpp"
#include "hydra/game/rng.hpp"
#include "hydra/model/precision.hpp"

namespace hydra::ppo {

model::Outputs forward(model::HydraNetImpl& net, const RolloutTensors& b, torch::DeviceType device, bool autocast) {
  model::Outputs out;
  {
    model::AutocastGuard guard(device, autocast);
    out = net.forward(b.obs, b.context);
  }
  return out.to_float();
}

torch::Tensor epoch_order(game::MasterSeed master, std::string_view label, std::int64_t update, std::int64_t epoch,
                          std::int64_t n, const torch::Device& device) {
  std::vector<std::int64_t> order(ix(n));
  std::iota(order.begin(), order.end(), std::int64_t{0});
  game::Xoshiro256ss rng(
      game::stream_key(master, label, {static_cast<std::uint64_t>(update), static_cast<std::uint64_t>(epoch)}));
  game::shuffle(std::span<std::int64_t>(order), rng);
  // clone(): from_blob does not own `order`, and to() onto the CPU would not copy it.
  return torch::from_blob(order.data(), {n}, torch::kLong).clone().to(device);
}

LossInput loss_input(model::HydraNetImpl& net, const RolloutTensors& b, torch::DeviceType device, bool autocast) {
  LossInput in;
  in.out = forward(net, b, device, autocast);
  in.legal = b.legal;
  in.action = b.action;
  in.old_logp = b.logp;
  in.advantage = b.advantage;
  in.returns = b.returns;
  in.tenpai = b.tenpai;
  in.danger = b.danger;
  in.action_advantage = b.action_advantage;
  in.old_probs = b.old_probs;
  in.weight = b.weight;
  return in;
}

}  // namespace hydra::ppo
