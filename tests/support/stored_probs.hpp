#pragma once

// A policy's masked probabilities at every stored decision of a rollout, evaluated on the
// rollout's own (binary16) observations, score contexts and legal masks: what the actors'
// policy saw when it chose. probs[i * kActions + a].

#include <vector>

#include "hydra/selfplay/policy.hpp"
#include "hydra/selfplay/rollout.hpp"

namespace hydra::testing {

inline std::vector<float> stored_probs(const selfplay::Rollout& r, selfplay::BatchPolicy& policy) {
  std::vector<float> obs(r.obs.size());
  selfplay::from_half(r.obs.data(), obs.data(), obs.size());
  std::vector<float> probs(r.size() * selfplay::kActions), value(r.size());
  const auto legal = r.legal_masks();
  policy.evaluate(selfplay::PolicyBatch{obs.data(), r.context.data(), legal.data(), static_cast<int>(r.size())},
                  selfplay::PolicyOutput{probs.data(), value.data()});
  return probs;
}

}  // namespace hydra::testing
