#pragma once

// One game as Hydra holds it in memory, whatever file it came from: the player names and the
// mjai events in one normalised form (see docs/LOGS.md):
//   - start_kyoku always has scores and kyotaku, reach_accepted/hora/ryukyoku/end_game always
//     have deltas (where the kind pays) and the scores after the event;
//   - hora always has its winning tile (`pai`);
//   - consumed tiles are sorted (kind, red five first: Tenhou id order), ankan's pai is "?";
//   - new dora follow Tenhou: after an ankan before the rinshan tsumo, after an open kan after the
//     rinshan tsumo and before the discard.

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hydra/common/error.hpp"
#include "hydra/game/event.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/wall.hpp"

namespace hydra::data {

// What a search at decision time weighed before one of the seat's actions (docs/LOGS.md
// "Search notes"): `hydra selfplay` with search: agents writes it into the action's mjai line as
// "meta": {"search": {"actions": [...], "values": [...], "deals": N}}, and the pretraining
// dataset gives it to the learner (pretrain.search_temperature). The candidates are actions of
// Hydra's 46-action space (game/action.hpp), most likely first, the one played among them; a
// value is the candidate's mean reward over the search's deals (common to all the candidates).
struct SearchNote {
  std::size_t event = 0;  // index in GameLog::events of the action the search chose
  std::vector<int> actions;
  std::vector<float> values;
  int deals = 0;
};
inline constexpr std::size_t kMaxSearchCandidates = 8;

// Whether an event of this type is its actor's own action (a discard, riichi, call, kan or win),
// the events a search note may sit on.
bool is_seat_action(game::EventType t);

struct GameLog {
  std::array<std::string, game::kNumSeats> names;
  std::string uri;  // where the game came from (the Tenhou log URL), may be empty
  std::vector<game::Event> events;
  // Whether the source recorded the end of the game (an mjai end_game, a Tenhou XML owari, a
  // tenhou.net/6 final result "sc"), or the reader closed the log with an end_game of its own
  // (tenhou.net/6 without "sc": such logs may stop anywhere). The replay checker holds a log to
  // its recorded end only.
  bool end_recorded = true;
  // The Tenhou lobby type the source names (the mjlog's GO type), when it does; rules_named_by()
  // (log_rules.hpp) also reads the log id in `uri`.
  std::optional<unsigned> tenhou_type;
  // Whether the source gave the final scores (Mortal and RiichiEnv write end_game without them:
  // normalize() fills them in from the running scores, leftover riichi sticks to the top player).
  bool final_scores_recorded = true;
  // The hidden wall of each kyoku, where the source records how it was built (a Tenhou mjlog's
  // SHUFFLE seed, rebuilt by tenhou_wall.hpp), else empty: walls[k] belongs to the k-th
  // start_kyoku, in game::Wall's layout, so game::Wall(walls[k]) deals, draws and reveals what the
  // log shows. `hydra replay --check` checks every deal, draw and indicator against it; a
  // privileged critic or a review may read all of it.
  std::vector<game::Wall::Tiles> walls;
  // The searches behind the seats' actions, in event order (empty for every log but Hydra's
  // self-play of search: agents).
  std::vector<SearchNote> searches;
};

// A log that is well formed but played under rules Hydra does not model (3-player, no red fives,
// chips, 30k start, ...). The message names the file and the rule.
class UnsupportedRule : public Error {
 public:
  using Error::Error;
};

// Which optional mjai fields an input line carried; the normaliser fills in the rest.
enum GivenField : std::uint8_t {
  kGivenScores = 1,
  kGivenDeltas = 2,
  kGivenKyotaku = 4,
  kGivenAll = 7,
};

// Names the place of event i in its source, for error messages ("file.json.gz:12").
using Locator = std::function<std::string(std::size_t event_index)>;

// Brings a parsed game into the normalised form and checks that it is one whole game whose
// given scores agree with the sum of its deltas. `given` has one GivenField mask per event
// (empty: everything given). Throws hydra::Error naming the place via `where`.
void normalize(GameLog& log, const std::vector<std::uint8_t>& given, const Locator& where);

// Why `rules` cannot play this game (a whole game, from East 1, with start scores other than
// rules.start_score), or nullopt. A fragment's start scores are taken as given.
// Readers do not ask (a log's format says nothing about its rules); the checker, the converter
// and the sample extractor do, with the rules they run under.
std::optional<std::string> unsupported_rule(const GameLog& log, const game::TableRules& rules);

// Throws UnsupportedRule ("NAME: unsupported rule: ...") when unsupported_rule() names a reason.
void require_supported(const GameLog& log, const game::TableRules& rules, std::string_view name);

// The first difference between two event streams ("event 12 (dahai): field 'pai' 5m vs 5mr"),
// or nullopt when they are equal; names and uri compared too, walls not (most formats lack them).
std::optional<std::string> first_difference(const GameLog& a, const GameLog& b);
std::optional<std::string> first_difference(const game::Event& a, const game::Event& b);

// Sort key for tiles in Tenhou id order: by kind, the red five before the plain fives.
inline int tenhou_order(game::Pai p) { return p.type().index() * 2 + (p.is_red() ? 0 : 1); }

}  // namespace hydra::data
