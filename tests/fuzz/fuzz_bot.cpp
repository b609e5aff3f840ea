// libFuzzer harness: the mjai bot protocol (`hydra bot`, selfplay::MjaiBot) with the torch-free
// greedy bot on seat 0, one input line per message. A line the bot refuses is reported (a
// hydra::Error) and the bot goes on with the next, as `hydra bot` does.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "harness.hpp"
#include "hydra/common/error.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/mjai_bot.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const hydra::game::TableRules& rules = hydra::game::rules_preset("tenhou");
  hydra::selfplay::MjaiBot bot(hydra::selfplay::make_bot("bot:greedy"), rules, hydra::game::Seat(0),
                               hydra::game::game_key(hydra::game::MasterSeed{1}, 0));
  std::string_view input(reinterpret_cast<const char*>(data), size);
  while (!input.empty()) {
    const std::size_t nl = input.find('\n');
    const std::string_view line = input.substr(0, nl);
    input = nl == std::string_view::npos ? std::string_view() : input.substr(nl + 1);
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    try {
      const std::string reply = bot.react(line);
      hydra::fuzz::replied(reply);
      if (!hydra::text::valid_utf8(reply)) hydra::fuzz::finding("the bot replied with text that is not UTF-8");
    } catch (const hydra::Error& e) {
    hydra::fuzz::refused(e);
    }
  }
  return 0;
}
