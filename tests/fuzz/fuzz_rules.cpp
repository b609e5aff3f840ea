// libFuzzer harness: a rules file (--rules FILE, rules.preset FILE).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "harness.hpp"
#include "hydra/common/error.hpp"
#include "hydra/game/rules.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)hydra::game::parse_rules(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz-rules.json");
  } catch (const hydra::Error& e) {
    hydra::fuzz::refused(e);
  }
  return 0;
}
