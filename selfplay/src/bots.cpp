#include "hydra/common/error.hpp"
#include "hydra/selfplay/bots.hpp"

namespace hydra::selfplay {

bool is_bot_name(std::string_view name) { return name.starts_with(kBotPrefix); }

std::unique_ptr<game::Agent> make_bot(std::string_view name) {
  if (!is_bot_name(name))
    throw Error("'" + std::string(name) +
                "': checkpoint models as agents are unsupported until the model and encoder libraries provide "
                "batched policy inference; use bot:random, bot:tsumogiri or bot:greedy");
  const std::string_view bot = name.substr(kBotPrefix.size());
  if (bot == "greedy") return std::make_unique<GreedyAgent>();
  if (bot == "random" || bot == "tsumogiri") return game::make_agent(bot);
  throw Error("unknown built-in agent '" + std::string(name) + "' (known: bot:random, bot:tsumogiri, bot:greedy)");
}

std::vector<std::string> bot_names() { return {"bot:random", "bot:tsumogiri", "bot:greedy"}; }

}  // namespace hydra::selfplay
