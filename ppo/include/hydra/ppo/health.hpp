#pragma once

// Guard rails of `hydra train` (docs/TRAINING.md "Warnings"): watches each update's scalars and
// names the metric and a remedy when one stays outside its healthy range for
// train.health_window updates in a row. Torch-free.
//
//   metric                    unhealthy when                                  typical cause
//   ppo/clip_fraction         > 0.3                                           steps too large
//   ppo/approx_kl             > 0.05, or < 1e-4 (the policy does not move)    lr too high / too low
//   loss/entropy              < 0.1 nats, or 0.2 nats above its first value   collapse / drift to uniform
//   ppo/explained_variance    < 0                                             value head off scale
//   rank/vs_baseline          mean over the window > 2.6 and > the first      the learner got worse
//                             full window + 0.1 (>= 20 seat-games)
//
// Updates of the value warm-up (ppo/value_warmup = 1) are not judged on the policy and value
// metrics: the policy does not move in them by design. A warning is given once per unhealthy
// stretch; the metric must come back into range before it can warn again.

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "hydra/common/metrics.hpp"

namespace hydra::ppo {

class TrainingHealth {
 public:
  // window 0 turns every check off.
  explicit TrainingHealth(int window);

  // One update's scalars (Learner and actor scalars together). Returns the warnings that fell
  // due at this update, each naming the metric, its recent value and a remedy.
  std::vector<std::string> observe(std::int64_t step, const metrics::Scalars& scalars);

 private:
  struct Streak {
    int count = 0;
    bool warned = false;
  };
  // Advances `s` with this update's verdict; true when the warning is due now.
  bool advance(Streak& s, bool unhealthy) const;

  int window_;
  std::optional<double> first_entropy_;
  Streak clip_, kl_high_, kl_low_, entropy_low_, entropy_high_, ev_, rank_;
  std::optional<double> rank_start_;  // the first full window's mean rank
  std::deque<std::array<double, 2>> rank_window_;  // (rank sum, seat-games) of recent updates
};

}  // namespace hydra::ppo
