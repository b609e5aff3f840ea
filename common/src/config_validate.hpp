#pragma once

// The cross-field checks behind config::validate, naming where each key's value came from.

#include <functional>
#include <string>

#include "hydra/common/config.hpp"

namespace hydra::config::detail {

// `origin_of(key)` names the source of a key's value, quoted ('FILE', '--set KEY=VALUE' or
// '<defaults>'); a refusal names every source of the keys it involves, the defaults only when
// nothing else is involved.
void validate(const Config& config, const std::function<std::string(const std::string& key)>& origin_of);

}  // namespace hydra::config::detail
