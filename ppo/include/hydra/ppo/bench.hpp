#pragma once

// The measurements behind `hydra bench model | learner | selfplay` (docs/GPU.md): how fast the
// network, the PPO update and self-play run on a device, to size a machine. Each runs the code
// training runs, on the config's model; the command (apps/torch/bench_report.cpp) prints them.
// Times are wall clock: they measure the device and the whole machine, not one core.

#include <cstdint>
#include <optional>
#include <string>

#include <torch/types.h>

#include "hydra/common/config.hpp"
#include "hydra/data/dataset.hpp"
#include "hydra/model/profiler.hpp"
#include "hydra/selfplay/actor_stats.hpp"
#include "hydra/selfplay/torch/inference.hpp"

namespace hydra::ppo {

// Forward passes through InferenceModel::evaluate, the call the actors make (host batch in, one
// device copy each way, masked softmax on the host; bf16 autocast as the model's config says).
struct ForwardRate {
  int batch = 0;
  std::int64_t passes = 0;
  double seconds = 0;
  double samples_per_s() const { return static_cast<double>(batch) * static_cast<double>(passes) / seconds; }
};

// A batch of `batch` rows cycling over `positions`, laid out as the actors lay theirs out: one
// warm-up pass (allocator, kernel choice), then passes until `seconds` have passed.
ForwardRate bench_forward(selfplay::InferenceModel& net, const data::SampleBatch& positions, int batch,
                          double seconds);

// Learner::update on a fixed rollout of one-decision episodes cycling over real positions, old
// log-probabilities from the learner's own network (as actors give them). Every planned epoch
// runs whatever the approx-KL (training cuts epochs only when the policy moved a lot).
struct LearnerRate {
  std::int64_t rollout_samples = 0;  // per update
  std::int64_t updates = 0;
  std::int64_t trained = 0;          // samples that went forward and backward (rollout x epochs)
  double seconds = 0;                // in the timed updates
  bool anchor = false;               // the learner runs a KL-anchor forward too
  std::int64_t learned_rows = 0;     // ppo.unplayed_share < 1: the rows an update kept
  std::optional<model::DeviceProfile> profile;  // of one more update, when asked
  double rollout_per_s() const { return static_cast<double>(rollout_samples * updates) / seconds; }
  double trained_per_s() const { return static_cast<double>(trained) / seconds; }
};

// `samples` <= 0: two minibatches, at most ppo.rollout_samples. One warm-up update, then updates
// until `seconds` have passed, each logged. With `profile`, one more update runs under the
// profiler (model::profile_device; outside the timed ones), its trace to `trace_file` if named.
// With the expected policy gradient, `played_share` of the decisions (evenly spread) have every
// legal action played out and the others none.
LearnerRate bench_learner(config::Config cfg, const torch::Device& device, const data::SampleBatch& positions,
                          std::int64_t samples, std::uint64_t seed, double seconds, bool profile = false,
                          const std::string& trace_file = "", double played_share = 1.0);

// selfplay::Actors as `hydra train` builds them on a fresh start (the learner's initial weights
// behind the current snapshot, a copy of them as the first pool entry, the baseline bot or
// checkpoint, the GRP reward model when the config names one; the same games for the same seed),
// collecting ppo.rollout_samples at a time until `seconds` have passed; progress every 5 s.
struct SelfplayRate {
  selfplay::ActorStats total;
  std::int64_t collects = 0;
};
SelfplayRate bench_selfplay(const config::Config& cfg, const torch::Device& device, std::uint64_t seed, double seconds);

}  // namespace hydra::ppo
