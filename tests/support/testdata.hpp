#pragma once

#include <filesystem>
#include <optional>

#include <gtest/gtest.h>

namespace hydra::testing {

// The shared real-data folder from HYDRA_TESTDATA, or nullopt when unset or missing.
std::optional<std::filesystem::path> testdata_dir();

}  // namespace hydra::testing

// Skips the current test with a clear message when the real data is absent; otherwise binds
// `var` to HYDRA_TESTDATA/sub.
#define HYDRA_REQUIRE_TESTDATA(var, sub)                                                  \
  const auto var##_root = ::hydra::testing::testdata_dir();                               \
  if (!var##_root) GTEST_SKIP() << "HYDRA_TESTDATA is not set or missing: real-data test skipped"; \
  const std::filesystem::path var = *var##_root / (sub);                                  \
  if (!std::filesystem::exists(var)) GTEST_SKIP() << var << " not found: real-data test skipped"
