#pragma once

// External mjai bots as agents (docs/EVAL.md "External agents"): wherever an agent is named,
// "mjai:COMMAND" or "mjai.app:COMMAND" is a process that plays its seat over stdin/stdout. The
// command is split into words as a shell does (process.hpp split_command); "{seat}" in it is
// replaced by the seat 0-3, and other braces are plain characters. The process sees what its seat may see: the other hands of
// start_kyoku and the other seats' draws are "?".
//
// Two protocol flavours:
//   mjai:      the classic one (mjai, Mortal): every event on its own line, as a JSON object;
//              one reply line to every event, {"type":"none"} where the seat has nothing to do.
//   mjai.app:  the RiichiLab / mjai.app host's (PyPI mjai 0.2.1, mjai/engine.py and the arena
//              it drives): a JSON array of the events since the last call, sent only when the
//              seat can act, plus [start_game], [end_kyoku] (the kyoku's unsent events are
//              dropped) and [end_game]; one reply line to each array.
// A game starts with {"type":"start_game","names":["0","1","2","3"],"id":SEAT,
// "hydra_game_key":HEX} (the key: mjai_bot.hpp kGameKeyField; other bots ignore it).
//
// The seat "can act" where its legal mask is more than a lone pass (Mortal's can_act). Hydra's
// table plays a seat's only legal action itself (a riichi tsumogiri, game/table.hpp), but the
// bot is still asked there, as a host asks, and must answer that action. A reply is read
// against the legal actions of the seat's view: an action matches when its event has the same
// type and tiles (a red five and a plain one count as the same tile where the tiles differ only
// in that, and the tsumogiri flag is not compared); the played event is Hydra's legal move of
// that action. A kan reply names its tile, so a kan-select decision that follows is answered
// from it without a second question.
//
// Faults: no reply before the time limit (reply_timeout; start_timeout for the start_game and
// start_kyoku lines, as mjai.app allows 10 s there), a process that exits or cannot be
// started, a reply that is not an mjai event of this seat, an action where the seat cannot act,
// an illegal action, or "none" where the seat must act. The agent records the first fault
// (fault()), kills the process and plays the game's remaining decisions with a stand-in (pass
// where legal, else the first legal action) so the game reaches its end; whoever drives the game
// must void it (duplicate.hpp: eval reports it, selfplay writes no log for it). A later game starts
// a new process.
//
// Processes: by default a process plays game after game (start_game/end_game delimit them; it
// goes back to a pool after end_game and is killed when the pool goes away); with
// `reuse = false` every game starts its own. Each process's stderr is appended to
// LOG_DIR/agentK-seatS.log (K: the spec's order of first use, from 1), with a header line
// naming the game and the process.

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hydra/game/legal.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/view.hpp"
#include "hydra/selfplay/play.hpp"
#include "hydra/selfplay/process.hpp"

namespace hydra::selfplay {

enum class MjaiFlavour { classic, app };

struct ExternalSpec {
  MjaiFlavour flavour = MjaiFlavour::classic;
  std::string command;  // as given, "{seat}" unreplaced
};

// "mjai:..." or "mjai.app:..."; nullopt for any other name.
std::optional<ExternalSpec> parse_external(std::string_view name);
bool is_external_name(std::string_view name);

struct ExternalOptions {
  std::chrono::milliseconds reply_timeout{2000};
  std::chrono::milliseconds start_timeout{10000};
  std::filesystem::path log_dir = "mjai-logs";
  bool reuse = true;
};

class ExternalAgents;

class ExternalAgent final : public ObservingAgent {
 public:
  ExternalAgent(ExternalAgents& owner, std::string name, ExternalSpec spec, int spec_index);
  ~ExternalAgent() override;

  std::string_view name() const override { return name_; }
  void start_game(game::Seat seat, const game::GameKey& key) override;
  void observe(const game::Event& e) override;
  game::Action act(const game::PlayerView& view, const game::Decision& d) override;
  const AgentFault* fault() const override { return fault_ ? &*fault_ : nullptr; }

 private:
  using Clock = BotProcess::Clock;
  struct Reply {
    std::string line;
    std::optional<game::Event> event;  // nullopt: "none"
  };

  std::string shown(const game::Event& e) const;  // the event as the seat may see it (one JSON object)
  // Sends one line and reads its reply; false after a fault (recorded).
  bool exchange(const std::string& line, bool start, Reply& reply);
  bool flush_batch();  // mjai.app: sends the batch, reads the reply into reply_
  void check_forced(const game::Event* next);
  std::optional<game::Action> match(const game::Legal& legal, game::ActionMask mask, const Reply& r);
  void fail(std::string reason, std::string event, std::string reply);
  void finish_game();

  ExternalAgents* owner_;
  std::string name_;
  ExternalSpec spec_;
  int spec_index_;
  game::Seat seat_;
  game::GameKey key_;
  std::uint64_t game_ = 0;
  std::unique_ptr<BotProcess> process_;
  std::vector<std::string> argv_;
  std::optional<game::PlayerView> view_;
  game::Legal legal_;               // the open decision's legal actions
  bool open_ = false;               // the seat can act after the events so far
  bool answered_ = false;           // the open decision's reply has been read
  std::optional<Reply> reply_;      // that reply
  std::optional<game::TileType> kan_;  // the tile of the last kan reply (kan-select)
  std::vector<std::string> batch_;  // mjai.app: the events not sent yet
  std::string asked_;               // the last line sent
  std::optional<AgentFault> fault_;
  bool ended_ = false;              // end_game handled
};

// Makes external agents and keeps their processes between games. Thread-safe; must outlive its
// agents.
class ExternalAgents {
 public:
  ExternalAgents(ExternalOptions options, const game::TableRules& rules);
  ~ExternalAgents();

  std::unique_ptr<ExternalAgent> make(const std::string& name);
  const ExternalOptions& options() const { return options_; }
  const game::TableRules& rules() const { return *rules_; }
  void set_log_dir(const std::filesystem::path& dir);  // before the first game

  // Internal to ExternalAgent: a started process for argv (from the pool or new), and back.
  std::unique_ptr<BotProcess> acquire(const std::vector<std::string>& argv, int spec_index, game::Seat seat,
                                      std::uint64_t* game);
  void release(const std::vector<std::string>& argv, std::unique_ptr<BotProcess> process);
  std::vector<std::string> words(const ExternalSpec& spec, game::Seat seat);

 private:
  ExternalOptions options_;
  const game::TableRules* rules_;
  std::mutex mu_;
  std::map<std::string, int> spec_index_;                   // name -> K of its log files
  std::map<std::string, std::vector<std::string>> split_;   // command -> words ({seat} marked)
  std::map<std::vector<std::string>, std::vector<std::unique_ptr<BotProcess>>> idle_;
  std::uint64_t games_ = 0;
  bool log_dir_made_ = false;
};

}  // namespace hydra::selfplay
