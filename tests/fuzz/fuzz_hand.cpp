// libFuzzer harness: hand notation through `hydra hand --batch` (one JSON request per line:
// compact tiles, melds, winning tile, round and seat winds, dora), evaluated as the command does;
// every reply line must be UTF-8.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "harness.hpp"
#include "hydra/common/text.hpp"
#include "hydra/game/hand_query.hpp"
#include "hydra/game/rules.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const hydra::game::TableRules& rules = hydra::game::rules_preset("tenhou");
  std::string_view input(reinterpret_cast<const char*>(data), size);
  for (int number = 1; !input.empty(); ++number) {
    const std::size_t nl = input.find('\n');
    const std::string line(input.substr(0, nl));
    input = nl == std::string_view::npos ? std::string_view() : input.substr(nl + 1);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string reply = hydra::game::hand_batch_line(line, number, rules);
    hydra::fuzz::replied(reply);
    if (!hydra::text::valid_utf8(reply)) hydra::fuzz::finding("hand --batch replied with text that is not UTF-8");
  }
  return 0;
}
