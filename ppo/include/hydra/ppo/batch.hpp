#pragma once

// A rollout as tensors, converted once per update and moved to the device once; minibatches are
// index_select of these.

#include <cstdint>

#include <torch/torch.h>

#include "hydra/selfplay/rollout.hpp"

namespace hydra::ppo {

struct RolloutTensors {
  torch::Tensor obs;        // [N,85,34] float (from binary16: exact, every half is a float)
  torch::Tensor context;    // [N,16] float
  torch::Tensor legal;      // [N,46] bool
  torch::Tensor action;     // [N] int64
  torch::Tensor logp;       // [N] float, log pi_old(action)
  torch::Tensor value;      // [N] float, V_old
  torch::Tensor advantage;  // [N] float, GAE (filled by the learner)
  torch::Tensor returns;    // [N] float, value targets (filled by the learner)
  torch::Tensor tenpai;     // [N,3] float 0/1
  torch::Tensor danger;     // [N,3,34] float 0/1
  torch::Tensor priv;       // [N,37,34] float privileged planes (only when the rollout has them)
  // ppo.policy_gradient = expected (filled by the learner): the normalised action advantages of
  // the play-outs [N,46] (0 on illegal actions) and the policy pi_old over all actions [N,46] on
  // the rows with two or more actions played out (0 on the others, whose action advantages are 0).
  torch::Tensor action_advantage;
  torch::Tensor old_probs;
  // ppo.unplayed_share < 1 (filled by the learner): the weight [N] float of each row kept, 1 for a
  // decision with action advantages and 1 / share for one without; undefined: every row weighs 1.
  torch::Tensor weight;

  std::int64_t size() const { return action.defined() ? action.size(0) : 0; }
  RolloutTensors to(const torch::Device& device) const;
  RolloutTensors select(const torch::Tensor& index) const;  // rows `index` (int64, same device)
};

// Per-decision action bitmasks (bit a: action a; Rollout::legal, Rollout::played_out) as an
// [N, 46] bool tensor on the CPU.
torch::Tensor action_masks(const std::vector<std::uint64_t>& bits);

// Runs Rollout::check (lengths, whole episodes, legal actions; hydra::InvariantError) and
// converts every field but advantage and returns, on the CPU.
RolloutTensors rollout_tensors(const selfplay::Rollout& rollout);

}  // namespace hydra::ppo
