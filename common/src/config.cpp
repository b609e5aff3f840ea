#include "hydra/common/config.hpp"

#include <string>

#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"

namespace hydra::config {

void validate(const Config& config, std::string_view origin) {
  if (config.model.channels % 32 != 0)
    throw Error("config error in '" + std::string(origin) + "': model.channels: " +
                std::to_string(config.model.channels) + " must be a multiple of 32 (GroupNorm(32))");
  const auto& sp = config.selfplay;
  const double shares = sp.opp_self + sp.opp_pool + sp.opp_baseline;
  if (shares < 1.0 - 1e-9 || shares > 1.0 + 1e-9)
    throw Error("config error in '" + std::string(origin) + "': selfplay.opp_self + opp_pool + opp_baseline = " +
                std::to_string(shares) + ", must be 1");
  if (config.ppo.minibatch > config.ppo.rollout_samples)
    throw Error("config error in '" + std::string(origin) + "': ppo.minibatch (" +
                std::to_string(config.ppo.minibatch) + ") exceeds ppo.rollout_samples (" +
                std::to_string(config.ppo.rollout_samples) + ")");
}

}  // namespace hydra::config
