#include "testdata.hpp"

#include <cstdlib>

namespace hydra::testing {

std::optional<std::filesystem::path> testdata_dir() {
  const char* env = std::getenv("HYDRA_TESTDATA");
  if (env == nullptr || *env == '\0') return std::nullopt;
  std::filesystem::path p(env);
  if (!std::filesystem::is_directory(p)) return std::nullopt;
  return p;
}

}  // namespace hydra::testing
