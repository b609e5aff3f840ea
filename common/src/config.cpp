#include "hydra/common/config.hpp"

#include <string>

#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"

namespace hydra::config {

void validate(const Config& config, std::string_view origin) {
  if (config.model.channels % 32 != 0)
    throw Error("config error in '" + std::string(origin) + "': model.channels: " +
                std::to_string(config.model.channels) + " must be a multiple of 32 (GroupNorm(32))");
}

}  // namespace hydra::config
