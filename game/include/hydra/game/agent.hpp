#pragma once

// Agents choose an action for a pending decision from the seat's view only. Any agent drives any
// seat. Randomness is an explicit input: a random agent is re-seeded for each game from a KDF
// child of the game key (label "exploration", index = seat), so a game replays exactly.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hydra/game/rng.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/game/table.hpp"

namespace hydra::game {

class Agent {
 public:
  virtual ~Agent() = default;
  virtual std::string_view name() const = 0;
  // Called before each game with the seat the agent plays and the game's key.
  virtual void start_game(Seat seat, const GameKey& key) = 0;
  // One of the actions in d.mask.
  virtual Action act(const PlayerView& view, const Decision& d) = 0;
};

// Uniform over the legal actions.
class RandomAgent final : public Agent {
 public:
  std::string_view name() const override { return "random"; }
  void start_game(Seat seat, const GameKey& key) override;
  Action act(const PlayerView& view, const Decision& d) override;

 private:
  Xoshiro256ss rng_{Digest{}};
};

// Discards what it draws and never calls: wins when it can, passes otherwise; after a call or
// in the riichi-discard and kan-select decisions it takes the first legal action.
class TsumogiriAgent final : public Agent {
 public:
  std::string_view name() const override { return "tsumogiri"; }
  void start_game(Seat, const GameKey&) override {}
  Action act(const PlayerView& view, const Decision& d) override;
};

// "random" or "tsumogiri"; throws hydra::Error listing the names otherwise.
std::unique_ptr<Agent> make_agent(std::string_view name);
std::vector<std::string> agent_names();

}  // namespace hydra::game
