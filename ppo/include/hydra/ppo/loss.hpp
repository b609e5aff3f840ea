#pragma once

// The PPO objective of docs/PPO.md on one minibatch: clipped surrogate, value MSE (no
// clipping), entropy bonus, optional KL anchor to a frozen (BC) policy, and the model's tenpai
// and danger auxiliary losses; plus the monitoring numbers (approx-KL, clip fraction).

#include <functional>
#include <vector>
#include <cstdint>

#include <torch/torch.h>

#include "hydra/common/config.hpp"
#include "hydra/model/network.hpp"

namespace hydra::ppo {

// (adv - mean) / (std + 1e-8), std the population std of the minibatch, clipped to
// [-clip, clip]. A batch of one (std 0) gives 0. With row weights [B], the weighted mean and std.
torch::Tensor normalize_advantages(const torch::Tensor& advantage, double clip, const torch::Tensor& weight = {});

// The logits of the policy played at temperature T: logits / T (the same tensor at T = 1), whose
// masked softmax is p^(1/T) renormalised over the legal actions, the actors' sampler (policy.hpp).
torch::Tensor tempered(const torch::Tensor& logits, double temperature);

// Entropy -sum_a p(a) log p(a) of the masked softmax per row [B]; illegal actions contribute 0.
torch::Tensor masked_entropy(const torch::Tensor& logits, const torch::Tensor& legal);

// KL(pi || pi_anchor) = sum over legal a of p(a) (log p(a) - log q(a)) per row [B], both
// distributions the masked softmax of their logits over the same legal set.
torch::Tensor masked_kl(const torch::Tensor& logits, const torch::Tensor& anchor_logits,
                        const torch::Tensor& legal);

// Auxiliary labels from the wait masks (selfplay::Rollout::opp_waits): waits [B,3] int64, bit t
// = tile type t is a wait of that opponent. tenpai [B,3] = waits != 0; danger [B,3,34] = bit t.
torch::Tensor tenpai_labels(const torch::Tensor& waits);
torch::Tensor danger_labels(const torch::Tensor& waits);

struct LossInput {
  model::Outputs out;          // fp32 outputs of the training network on the minibatch
  torch::Tensor legal;         // [B,46] bool
  torch::Tensor action;        // [B] int64
  torch::Tensor old_logp;      // [B] log pi_old(action) from the rollout
  torch::Tensor advantage;     // [B] GAE advantages (normalised here when asked)
  torch::Tensor returns;       // [B] value targets
  torch::Tensor tenpai;        // optional [B,3] labels (tenpai_labels)
  torch::Tensor danger;        // optional [B,3,34] labels (danger_labels)
  torch::Tensor anchor_logits; // optional [B,46] policy logits of the anchor network
  // Expected policy gradient (ppo.policy_gradient = expected), both or neither: the action
  // advantages [B,46] (normalised by the learner, 0 on illegal actions; `advantage` is then only
  // reported) and pi_old over all actions [B,46]. The policy term becomes
  // -mean over rows of sum_a pi_old(a) min(r_a A_a, clip(r_a, 1 - eps, 1 + eps) A_a), r_a =
  // pi(a) / pi_old(a): the clipped surrogate in expectation over the action instead of at the
  // sampled one. Its gradient at pi = pi_old is -sum_a grad pi(a) A_a. Not data-parallel.
  torch::Tensor action_advantage;
  torch::Tensor old_probs;
  // Optional [B] float row weights (RolloutTensors::weight): every mean over the rows (each term,
  // approx-KL, the clip fraction, the advantage normalisation) becomes sum(w x) / sum(w), the
  // mean over the rows each repeated w times. Not data-parallel.
  torch::Tensor weight;
  // Data-parallel training (docs/DISTRIBUTED.md): these B samples are this rank's part of one
  // minibatch of `global_count` samples over all ranks (B may be 0), and `reduce` sums small
  // tensors over the ranks in place. Every batch statistic (the advantage normalisation, the
  // mean entropy the target compares, the anchor's entropy, approx-KL, the reported losses) is
  // then the whole minibatch's, and `total` is this rank's share of the whole minibatch's mean
  // loss: the ranks' gradients summed are the gradient of that mean. Unset: B is the minibatch.
  std::function<void(std::vector<torch::Tensor>&)> reduce;
  std::int64_t global_count = 0;
};

struct LossSettings {
  double clip = 0.1;
  double value_coef = 0.5;
  double entropy_coef = 0.01;
  // Entropy (nats) above which the bonus gives no gradient: the term is -coef * min(H, target),
  // H the minibatch mean. < 0: the anchor policy's mean entropy on the same minibatch when
  // anchor_logits is defined, no target otherwise; 0: no target.
  double entropy_target = 0.0;
  double kl_anchor_coef = 0.0;  // used only when anchor_logits is defined
  bool value_only = false;      // value warm-up: total = value_coef * value (no policy, entropy, KL, aux)
  bool normalize_advantages = true;
  double adv_clip = 5.0;
  double w_tenpai = 0.05;       // model.w_tenpai * ppo.aux_coef
  double w_danger = 0.05;       // model.w_danger * ppo.aux_coef
  double focal_alpha = 0.25;
  double focal_gamma = 2.0;
  // The temperature T of the policy the actors play and PPO trains: softmax(logits / T) over the
  // legal actions (selfplay.temperature). The ratio, entropy and KL anchor all see that policy.
  double temperature = 1.0;

  // Everything but the coefficients that change per update (entropy, KL anchor), from the model
  // and ppo sections and selfplay.temperature.
  static LossSettings from_config(const config::ModelConfig& model, const config::PpoConfig& ppo, double temperature);
};

struct LossTerms {
  // total = policy + value_coef * value - entropy_coef * min(entropy, target)
  //         + kl_anchor_coef * kl_anchor + w_tenpai * tenpai + w_danger * danger
  //         (the last three only when defined; value_only: value_coef * value alone)
  torch::Tensor total;
  torch::Tensor policy;     // -mean min(r A, clip(r, 1 - eps, 1 + eps) A) (or its expectation over actions)
  torch::Tensor value;      // mean (V - R)^2
  torch::Tensor entropy;    // mean masked entropy
  torch::Tensor entropy_target;  // the target used (0-d); undefined without one
  torch::Tensor kl_anchor;  // mean KL(pi || anchor); undefined without an anchor
  torch::Tensor tenpai;     // BCE; undefined without labels
  torch::Tensor danger;     // focal BCE; undefined without labels
  // Detached monitoring scalars (0-d tensors on the input's device, read without a sync):
  torch::Tensor approx_kl;      // mean (r - 1) - log r, r = pi(action) / pi_old(action)
  torch::Tensor clip_fraction;  // share of samples with |r - 1| > clip
};

LossTerms ppo_loss(const LossInput& in, const LossSettings& settings);

// The expected form's per-row term sum_a pi_old(a) min(r_a A_a, clip(r_a) A_a) [B] from the
// policy's tempered masked log-probabilities [B,46] (see LossInput::action_advantage).
torch::Tensor expected_surrogate(const torch::Tensor& logp_all, const torch::Tensor& legal,
                                 const torch::Tensor& action_advantage, const torch::Tensor& old_probs, double clip);

}  // namespace hydra::ppo
