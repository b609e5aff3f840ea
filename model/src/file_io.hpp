#pragma once

// Byte-level file helpers for checkpoints: whole-file reads and SHA-256 (crash-safe writes are
// hydra/common/atomic_file.hpp).

#include <filesystem>
#include <string>
#include <string_view>

namespace hydra::model::detail {

// The whole file; hydra::Error naming it when it cannot be read.
std::string read_file(const std::filesystem::path& file);

// Lower-case hex SHA-256 (OpenSSL EVP).
std::string sha256_hex(std::string_view data);

}  // namespace hydra::model::detail
