#pragma once

// The batch policy the lock-step actors (actors.hpp) evaluate: any function from a batch of
// (observation, score context, legal mask) to (masked action probabilities, value). Torch-free,
// so the actors, their tests and the TSan build need no LibTorch; the torch side provides the
// network-backed one (inference.hpp).
//
// evaluate() is called from the actors' dedicated inference thread, one call per model and
// batch, never concurrently on one object by the actors; implementations used by several Actors
// at once (a shared pool snapshot) must be safe to call from several threads.

#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

#include "hydra/encoder/layout.hpp"
#include "hydra/game/action.hpp"

namespace hydra::selfplay {

struct PolicyBatch {
  const float* obs = nullptr;            // n * encoder::kObsSize, [n, 85, 34]
  const float* context = nullptr;        // n * 16, the score context (score_context below)
  const game::ActionMask* legal = nullptr;  // n legal masks (46 actions)
  int n = 0;
};

struct PolicyOutput {
  float* probs = nullptr;  // n * 46: softmax over the legal actions, 0 elsewhere, sums to 1
  float* value = nullptr;  // n
};

class BatchPolicy {
 public:
  virtual ~BatchPolicy() = default;
  virtual void evaluate(const PolicyBatch& in, PolicyOutput out) = 0;
  // The snapshot's version (learner update count when it was published), stored per decision.
  virtual std::int64_t version() const = 0;
  // Whether evaluate() gains from running beside other policies' evaluate() on other threads:
  // true for CUDA snapshots (each replays its CUDA graphs on its own stream, so the GPU overlaps
  // passes too small to fill it); false (the default) where they would only share the same cores.
  virtual bool overlaps() const { return false; }
};

// A deterministic torch-free policy for tests and the TSan build: logits = W obs + b with fixed
// pseudo-random weights drawn from `seed` (game/rng.hpp, one KDF stream), a masked softmax over
// the legal actions, value = tanh(v . obs). Each row depends on its own inputs only, so results
// are identical whatever the batch composition or thread count.
class LinearTestPolicy final : public BatchPolicy {
 public:
  explicit LinearTestPolicy(std::uint64_t seed, std::int64_t version = 0);
  void evaluate(const PolicyBatch& in, PolicyOutput out) override;
  std::int64_t version() const override { return version_; }
  // Makes the engine treat it as a CUDA snapshot (overlapping evaluations; default false).
  void set_overlaps(bool on) { overlaps_ = on; }
  bool overlaps() const override { return overlaps_; }
  // Rows evaluated so far (all calls).
  std::int64_t rows() const { return rows_.load(); }

 private:
  // Weights over a compressed observation: the per-channel sums (85 features) keep the policy
  // cheap and still observation-dependent.
  std::vector<float> w_;  // 46 * 85
  std::vector<float> b_;  // 46
  std::vector<float> v_;  // 85
  std::int64_t version_ = 0;
  bool overlaps_ = false;
  std::atomic<std::int64_t> rows_{0};
};

// The weights p^(1/T) (T = 1 / inv_temperature) of the legal actions with p > 0, 0 elsewhere,
// not normalised: what sample_action draws from.
std::array<double, game::kNumActions> tempered_weights(const float* probs, game::ActionMask legal, double inv_temperature);

// The one sampler of self-play and of sampling checkpoint agents: the action drawn from `probs`
// (46) over `legal` at temperature 1 / inv_temperature (weights p^(1/T) over the legal actions
// with p > 0, renormalised) by one uniform draw u in [0, 1). Throws an InvariantError when no
// legal action has a positive probability.
int sample_action(const float* probs, game::ActionMask legal, double inv_temperature, double u);

// log of the probability with which sample_action draws `action` at the same temperature:
// log(p_a^(1/T) / sum over legal b with p_b > 0 of p_b^(1/T)). At T = 1 it is log p_a. The actors
// store it as the behaviour policy's log-probability; the learner trains that same tempered policy
// (ppo::tempered), so PPO's ratio pi_T / pi_T,old is 1 on the first minibatch.
double sampled_log_prob(const float* probs, game::ActionMask legal, double inv_temperature, int action);

// Writes the masked softmax of `logits` (46) over `legal` into probs (46); the legal mask must
// not be empty.
void masked_softmax(const float* logits, game::ActionMask legal, float* probs);

}  // namespace hydra::selfplay
