#pragma once

// The units behind make_estimator (estimator.hpp), one per file.

#include <memory>

#include "hydra/ppo/estimator.hpp"

namespace hydra::ppo {

std::unique_ptr<AdvantageEstimator> make_gae_estimator();                               // estimator_gae.cpp
std::unique_ptr<AdvantageEstimator> make_privileged_gae_estimator(const EstimatorContext& ctx);  // estimator_gae.cpp
std::unique_ptr<AdvantageEstimator> make_play_out_estimator(const EstimatorContext& ctx, bool expected);  // estimator_play_outs.cpp

}  // namespace hydra::ppo
