// libFuzzer harness: one mjai JSON line (data::parse_mjai_line, simdjson).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "harness.hpp"
#include "hydra/common/error.hpp"
#include "hydra/data/mjai.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)hydra::data::parse_mjai_line(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const hydra::Error& e) {
    hydra::fuzz::refused(e);
  }
  return 0;
}
