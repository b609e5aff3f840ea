#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "hydra/common/config.hpp"

namespace hydra::config {

// Reads a config: defaults, then the JSON file (comments allowed), then each `key.path=value`
// override in order. A value that parses as JSON is taken as JSON (4, true, null, [1,2]),
// anything else as a string (cpu). Every problem throws hydra::Error naming the file (or the
// --set flag) and the key path.
Config load(const std::optional<std::filesystem::path>& file,
            const std::vector<std::string>& overrides = {});

// Same, from text already in memory; `origin` names it in messages.
Config parse(std::string_view text, std::string_view origin,
             const std::vector<std::string>& overrides = {});

// The effective config, every field included, in declaration order.
nlohmann::ordered_json to_json(const Config& config);

// Cross-field checks that a single field's range cannot express.
void validate(const Config& config, std::string_view origin);

}  // namespace hydra::config
