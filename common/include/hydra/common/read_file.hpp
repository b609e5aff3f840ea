#pragma once

// Whole-file reads, the one place Hydra opens a file to read all of it (crash-safe writes are
// atomic_file.hpp).

#include <filesystem>
#include <string>
#include <string_view>

namespace hydra {

// The file's bytes. Throws hydra::Error "cannot open WHAT 'FILE': REASON" (or "cannot read ...")
// when it cannot; WHAT names the file's role ("config file", "rules file"), empty for none.
std::string read_file(const std::filesystem::path& file, std::string_view what = {});

}  // namespace hydra
