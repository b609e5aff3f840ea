// libFuzzer harness: a run config file and --set overrides. The input is the file's text, then
// optionally a NUL byte and one --set argument per line. An accepted config is printed as
// `hydra config show` and a run directory's config.json print it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "harness.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  const std::string_view file = input.substr(0, nul);
  std::vector<std::string> sets;
  if (nul != std::string_view::npos) {
    std::string_view rest = input.substr(nul + 1);
    while (!rest.empty()) {
      const std::size_t nl = rest.find('\n');
      sets.emplace_back(rest.substr(0, nl));
      rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    }
  }
  try {
    const hydra::config::Config config = hydra::config::parse(file, "fuzz.json", sets);
    const std::string shown = hydra::json::dump(hydra::config::to_json(config), 2);
    if (!hydra::text::valid_utf8(shown)) hydra::fuzz::finding("config show printed text that is not UTF-8");
  } catch (const hydra::Error& e) {
    hydra::fuzz::refused(e);
  }
  return 0;
}
