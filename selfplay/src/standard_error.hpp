#pragma once

// The standard error of a mean of n paired differences (n >= 2; 0 for fewer): the search's gate
// (search.cpp) and PPO's gate on action values (play_out_collector.cpp) weigh a mean gain
// against it.

#include <cmath>
#include <cstddef>

namespace hydra::selfplay {

// diff(i): the i-th difference, i < n; mean: their mean.
template <class Diff>
double standard_error(std::size_t n, double mean, Diff diff) {
  if (n < 2) return 0.0;
  double var = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double d = diff(i) - mean;
    var += d * d;
  }
  return std::sqrt(var / static_cast<double>(n - 1) / static_cast<double>(n));
}

}  // namespace hydra::selfplay
