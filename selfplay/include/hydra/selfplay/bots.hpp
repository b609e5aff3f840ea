#pragma once

// The built-in agents by name, usable anywhere an agent is named (eval, bot, selfplay):
//   bot:random     uniform over the legal actions (game/agent.hpp)
//   bot:tsumogiri  discards what it draws, never calls, takes wins
//   bot:greedy     tile efficiency with a simple riichi defence (GreedyAgent below)
// A name without the "bot:" prefix is a checkpoint path; playing those needs the model and the
// encoder (not part of this torch-free library), so make_bot() rejects them with a clear error.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hydra/game/agent.hpp"
#include "hydra/game/rng.hpp"

namespace hydra::selfplay {

// Minimises shanten, then maximises ukeire (unseen copies from its own view); declares riichi
// when it can (tenpai and the rules allow it), always takes a win, pons only yakuhai that lower
// its shanten, and folds against another seat's riichi while it is not tenpai itself: the safest
// discard by the danger order genbutsu < suji < the rest (see danger() in greedy.cpp). Exact ties
// are broken by a fixed tile order, then by a xoshiro stream that start_game() seeds from the KDF
// child (game key, "exploration", seat): a game with this agent replays exactly.
class GreedyAgent final : public game::Agent {
 public:
  std::string_view name() const override { return "greedy"; }
  void start_game(game::Seat seat, const game::GameKey& key) override;
  game::Action act(const game::PlayerView& view, const game::Decision& d) override;

 private:
  game::Action turn(const game::PlayerView& view, const game::Decision& d);
  game::Action response(const game::PlayerView& view, const game::Decision& d);
  game::Xoshiro256ss rng_{game::Digest{}};
};

inline constexpr std::string_view kBotPrefix = "bot:";

bool is_bot_name(std::string_view name);
// "bot:random", "bot:tsumogiri" or "bot:greedy"; throws hydra::Error otherwise (a checkpoint
// path gets the "unsupported until ..." message).
std::unique_ptr<game::Agent> make_bot(std::string_view name);
std::vector<std::string> bot_names();

}  // namespace hydra::selfplay
