#pragma once

// Byte-level file helpers for checkpoints: whole-file reads, crash-safe writes, SHA-256.

#include <filesystem>
#include <string>
#include <string_view>

namespace hydra::model::detail {

// The whole file; hydra::Error naming it when it cannot be read.
std::string read_file(const std::filesystem::path& file);

// Writes `data` so that `file` holds either its old content or all of `data`, never a prefix:
// a temporary file in the same directory, fsync, rename over `file`, fsync of the directory.
void write_atomic(const std::filesystem::path& file, std::string_view data);

// Lower-case hex SHA-256 (OpenSSL EVP).
std::string sha256_hex(std::string_view data);

}  // namespace hydra::model::detail
