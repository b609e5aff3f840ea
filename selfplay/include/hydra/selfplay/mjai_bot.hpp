#pragma once

// An agent as an mjai bot (docs/EVAL.md, the Mortal-compatible protocol): the host sends the
// game's events as JSON lines, either one event object per line or a JSON array of events per
// line (mjai.app style); the bot answers every line with exactly one JSON line: its action when
// the line gave its seat a decision, else {"type":"none"}.
//
// The bot keeps its seat's PlayerView from the events alone (other seats' hidden tiles may be
// "?" or real; the view ignores them). A decision is opened by the event that gives the seat a
// choice: its own tsumo, chi or pon (discard) and reach (riichi discard); another seat's dahai
// (ron, calls), kakan (chankan) or ankan (kokushi chankan where allowed). Events that do not open a
// decision - a dora after a rinshan draw among them - get "none" when they come on their own
// line. A lone "pass" needs no agent. Replies (Mortal's field set):
//   {"type":"dahai","actor":0,"pai":"5m","tsumogiri":false}   {"type":"reach","actor":0}
//   {"type":"chi"|"pon"|"daiminkan","actor":0,"target":3,"pai":"4p","consumed":["5pr","6p"]}
//   {"type":"ankan","actor":0,"consumed":[...4]}   {"type":"kakan","actor":0,"pai":"E","consumed":[...3]}
//   {"type":"hora","actor":0,"target":3,"pai":"7s"}   {"type":"ryukyoku","actor":0}   {"type":"none"}
// With several kan candidates the agent's kan-select decision is asked at once (the host sees
// one kan action).
//
// A start_game with "hydra_game_key" (below) sets the key the agent's games start with.
// The seat comes from the constructor or, when absent, from start_game's "id" (mjai's protocol).
// An explicit seat wins over the id (mjai 0.2.1's Docker engine sends the game index there),
// with a warning when they differ. start_kyoku's scores, honba and kyotaku are the host's word
// on the totals and the view takes them (a host may send no hora or ryukyoku); a line without
// them keeps the view's running totals. A malformed or impossible line throws hydra::Error; the
// caller reports it and goes on with the next line. A line is taken whole or not at all: its
// events are applied to a copy of the view, each must pass game::inconsistency() as well
// as apply()'s own checks, and the bot's state changes (and the event hook runs) only when all
// of them did.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hydra/game/agent.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/view.hpp"

namespace hydra::selfplay {

class MjaiBot {
 public:
  MjaiBot(std::unique_ptr<game::Agent> agent, const game::TableRules& rules, std::optional<game::Seat> seat,
          const game::GameKey& key);

  // One input line -> one reply line (no newline).
  std::string react(std::string_view line);
  // The same on parsed events (the last element decides; `seat_id` is start_game's "id" if any).
  // Returns the action event, or nullopt for "none".
  std::optional<game::Event> react(const std::vector<game::Event>& events, std::optional<int> seat_id = {});

  std::optional<game::Seat> seat() const { return seat_; }
  const game::PlayerView* view() const { return view_ ? &*view_ : nullptr; }
  // Called with each event as the view applied it (start_kyoku completed as above), once the
  // whole line was taken and before the decision: for an agent that keeps its own view.
  void set_event_hook(std::function<void(const game::Event&)> hook) { hook_ = std::move(hook); }
  // The last warning (an explicit seat that differs from start_game's id), also logged.
  const std::string& warning() const { return warning_; }
  // Whether `e` gives `seat` a choice (see above); a dora after it keeps that choice open.
  static bool opens_decision(const game::Event& e, game::Seat seat);
  // Whether legal actions `m` are a choice to ask about: more than a lone pass (Mortal's can_act).
  static bool can_act(game::ActionMask m) {
    return !m.empty() && !(m.count() == 1 && m.test(game::Action(game::Action::kPass)));
  }

 private:
  std::optional<game::Event> react(const std::vector<game::Event>& events, std::optional<int> seat_id,
                                   const std::vector<std::uint8_t>& given, std::optional<game::GameKey> key);
  std::optional<game::Event> decide();

  std::unique_ptr<game::Agent> agent_;
  const game::TableRules* rules_;
  std::optional<game::Seat> seat_;
  bool explicit_seat_ = false;
  std::string warning_;
  std::function<void(const game::Event&)> hook_;
  game::GameKey key_;
  std::optional<game::PlayerView> view_;
  game::Legal legal_;
  game::EventType prev_ = game::EventType::none;  // the last event applied
};

// A Hydra extension of start_game: the game's key as 64 hex digits. Hydra's own host (external
// agents, external_agent.hpp) sends it; the bot then seeds its agent's random stream from it
// instead of --seed, so an external `hydra bot` plays exactly as the same agent in process.
// Other bots ignore the field.
inline constexpr std::string_view kGameKeyField = "hydra_game_key";

// The Mortal-dialect reply line of an action event (or {"type":"none"}).
std::string reply_line(const std::optional<game::Event>& action);

}  // namespace hydra::selfplay
