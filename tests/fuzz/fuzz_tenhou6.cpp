// libFuzzer harness: a tenhou.net/6 JSON game (one document or JSON lines), then what convert
// and replay --check do with it.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "harness.hpp"
#include "hydra/common/error.hpp"
#include "hydra/data/tenhou.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    hydra::fuzz::use_log(hydra::data::parse_tenhou6(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json"));
  } catch (const hydra::Error& e) {
    hydra::fuzz::refused(e);
  }
  return 0;
}
