#include "hydra/game/agent.hpp"

#include "hydra/common/error.hpp"
#include "hydra/common/text.hpp"

namespace hydra::game {

void RandomAgent::start_game(Seat seat, const GameKey& key) {
  rng_ = Xoshiro256ss(derive(key, labels::exploration, {static_cast<std::uint64_t>(seat.index())}));
}

Action RandomAgent::act(const PlayerView&, const Decision& d) {
  return d.mask.nth(static_cast<int>(rng_.below(static_cast<std::uint32_t>(d.mask.count()))));
}

Action TsumogiriAgent::act(const PlayerView& view, const Decision& d) {
  if (d.mask.test(Action(Action::kAgari))) return Action(Action::kAgari);
  if (d.phase == Phase::response || d.phase == Phase::chankan) return Action(Action::kPass);
  if (d.phase == Phase::turn && !view.last_drawn().is_unknown()) {
    const Action tsumogiri = Action::discard(view.last_drawn());
    if (d.mask.test(tsumogiri)) return tsumogiri;
  }
  return d.mask.nth(0);
}

std::unique_ptr<Agent> make_agent(std::string_view name) {
  if (name == "random") return std::make_unique<RandomAgent>();
  if (name == "tsumogiri") return std::make_unique<TsumogiriAgent>();
  throw Error("unknown agent '" + text::excerpt(name) + "' (known: random, tsumogiri)");
}

std::vector<std::string> agent_names() { return {"random", "tsumogiri"}; }

}  // namespace hydra::game
