#pragma once

// Byte-level file helpers for checkpoints: whole-file reads (SHA-256 is game::sha256, crash-safe
// writes hydra/common/atomic_file.hpp).

#include <filesystem>
#include <string>
#include <string_view>

namespace hydra::model::detail {

// The whole file; hydra::Error naming it when it cannot be read.
std::string read_file(const std::filesystem::path& file);

}  // namespace hydra::model::detail
