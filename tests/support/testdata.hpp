#pragma once

#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

namespace hydra::testing {

// The shared real-data folder from HYDRA_TESTDATA, or nullopt when unset or missing.
std::optional<std::filesystem::path> testdata_dir();

// The files directly in `dir` whose names end with `suffix` (e.g. ".json.gz"), sorted by path.
std::vector<std::filesystem::path> files_ending_with(const std::filesystem::path& dir, std::string_view suffix);

}  // namespace hydra::testing

// Skips the current test with a clear message when the real data is absent; otherwise binds
// `var` to HYDRA_TESTDATA/sub.
#define HYDRA_REQUIRE_TESTDATA(var, sub)                                                  \
  const auto var##_root = ::hydra::testing::testdata_dir();                               \
  if (!var##_root) GTEST_SKIP() << "HYDRA_TESTDATA is not set or missing: real-data test skipped"; \
  const std::filesystem::path var = *var##_root / (sub);                                  \
  if (!std::filesystem::exists(var)) GTEST_SKIP() << var << " not found: real-data test skipped"
