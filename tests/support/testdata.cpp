#include "testdata.hpp"

#include <algorithm>
#include <cstdlib>

namespace hydra::testing {

std::optional<std::filesystem::path> testdata_dir() {
  const char* env = std::getenv("HYDRA_TESTDATA");
  if (env == nullptr || *env == '\0') return std::nullopt;
  std::filesystem::path p(env);
  if (!std::filesystem::is_directory(p)) return std::nullopt;
  return p;
}

std::vector<std::filesystem::path> files_ending_with(const std::filesystem::path& dir, std::string_view suffix) {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().string().ends_with(suffix)) out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace hydra::testing
