#include "hydra/selfplay/external_agent.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "hydra/common/error.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/text.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/selfplay/mjai_bot.hpp"
#include "hydra/common/index.hpp"

namespace hydra::selfplay {

using game::Action;
using game::Event;
using game::EventType;

namespace {

constexpr std::string_view kClassicPrefix = "mjai:";
constexpr std::string_view kAppPrefix = "mjai.app:";
// Stands for "{seat}" while the command is split (braces are special to the shell grammar).
constexpr std::string_view kSeatMark = "HYDRA_SEAT_WORD_MARK";
constexpr std::size_t kShownChars = 400;  // of a line or reply in a fault report

// A line or reply for the report: text::excerpt (valid UTF-8, control characters escaped: a bot's
// bytes reach JSON and the terminal); a long one keeps its head and its tail, where an mjai.app
// batch has the decision's events.
std::string clipped(const std::string& s) {
  if (s.size() <= kShownChars) return text::excerpt(s, kShownChars);
  return text::excerpt(std::string_view(s).substr(0, kShownChars / 4), kShownChars) + " ... " +
         text::excerpt(std::string_view(s).substr(s.size() - 3 * kShownChars / 4), kShownChars);
}

void replace_all(std::string& s, std::string_view from, std::string_view to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

// Tile types of a consumed list, sorted (red fives as plain ones).
std::vector<int> types(const game::Consumed& c) {
  std::vector<int> t;
  for (game::Pai p : c) t.push_back(p.type().index());
  std::sort(t.begin(), t.end());
  return t;
}

std::vector<int> exact(const game::Consumed& c) {
  std::vector<int> t;
  for (game::Pai p : c) t.push_back(p.type().index() * 2 + (p.is_red() ? 1 : 0));
  std::sort(t.begin(), t.end());
  return t;
}

// Whether the legal move's event `m` is what the reply `r` asked for; `loose` ignores red fives.
bool same_move(const Event& m, const Event& r, bool loose) {
  if (m.type != r.type) return false;
  const auto tile = [&](game::Pai a, game::Pai b) { return loose ? a.type() == b.type() : a == b; };
  switch (m.type) {
    case EventType::dahai: return tile(m.pai, r.pai);
    case EventType::chi:
    case EventType::pon:
    case EventType::daiminkan:
      return tile(m.pai, r.pai) && (loose ? types(m.consumed) == types(r.consumed) : exact(m.consumed) == exact(r.consumed));
    case EventType::kakan: return m.pai.type() == r.pai.type();
    case EventType::ankan: return types(m.consumed) == types(r.consumed);
    default: return true;  // reach, hora, ryukyoku: the type says it all
  }
}

// Braces outside quotes escaped with a backslash: the shell grammar wordexp() follows refuses a
// bare brace, but a placeholder such as a bridge's {port} is a plain word to Hydra.
std::string braces_quoted(const std::string& command) {
  std::string out;
  char quote = 0;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (quote != '\'' && c == '\\' && i + 1 < command.size()) {
      out += c;
      out += command[++i];
      continue;
    }
    if (quote == 0 && (c == '\'' || c == '"')) quote = c;
    else if (quote != 0 && c == quote) quote = 0;
    if (quote == 0 && (c == '{' || c == '}')) out += '\\';
    out += c;
  }
  return out;
}

// Whether execvp would find `program` (with a slash: that file; else on PATH) as an executable.
bool runnable(const std::string& program) {
  if (program.find('/') != std::string::npos) return ::access(program.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  for (std::size_t at = 0; at <= dirs.size();) {
    const std::size_t end = std::min(dirs.find(':', at), dirs.size());
    const std::string dir = end > at ? dirs.substr(at, end - at) : ".";
    if (::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
    at = end + 1;
  }
  return false;
}

}  // namespace

std::optional<ExternalSpec> parse_external(std::string_view name) {
  ExternalSpec spec;
  if (name.starts_with(kClassicPrefix)) {
    spec.flavour = MjaiFlavour::classic;
    spec.command = std::string(name.substr(kClassicPrefix.size()));
  } else if (name.starts_with(kAppPrefix)) {
    spec.flavour = MjaiFlavour::app;
    spec.command = std::string(name.substr(kAppPrefix.size()));
  } else {
    return std::nullopt;
  }
  return spec;
}

bool is_external_name(std::string_view name) { return parse_external(name).has_value(); }

// ---------------------------------------------------------------------------------------------

ExternalAgents::ExternalAgents(ExternalOptions options, const game::TableRules& rules)
    : options_(std::move(options)), rules_(&rules) {}

ExternalAgents::~ExternalAgents() {
  for (auto& [argv, list] : idle_)
    for (auto& p : list) p->close(std::chrono::milliseconds(200));
}

void ExternalAgents::set_log_dir(const std::filesystem::path& dir) {
  const std::scoped_lock lock(mu_);
  options_.log_dir = dir;
  log_dir_made_ = false;
}

std::unique_ptr<ExternalAgent> ExternalAgents::make(const std::string& name) {
  std::optional<ExternalSpec> spec = parse_external(name);
  if (!spec) throw Error("'" + name + "' is not an external agent (mjai:COMMAND or mjai.app:COMMAND)");
  int index = 0;
  {
    const std::scoped_lock lock(mu_);
    auto [it, added] = spec_index_.emplace(name, static_cast<int>(spec_index_.size()) + 1);
    index = it->second;
  }
  try {
    // The command is checked before any game: its words, and that its program can be run.
    const std::vector<std::string> argv = words(*spec, game::Seat(0));
    if (!runnable(argv[0])) throw Error("program '" + argv[0] + "' not found" + (argv[0].find('/') == std::string::npos ? " on PATH" : "") + " or not executable");
  } catch (const Error& e) {
    throw Error("agent '" + name + "': " + e.what());
  }
  return std::make_unique<ExternalAgent>(*this, name, std::move(*spec), index);
}

std::vector<std::string> ExternalAgents::words(const ExternalSpec& spec, game::Seat seat) {
  std::vector<std::string> argv;
  {
    // Split once per command (wordexp is not thread-safe, and the words do not change).
    const std::scoped_lock lock(mu_);
    auto it = split_.find(spec.command);
    if (it == split_.end()) {
      std::string marked = spec.command;
      replace_all(marked, "{seat}", kSeatMark);
      marked = braces_quoted(marked);
      try {
        it = split_.emplace(spec.command, split_command(marked)).first;
      } catch (const Error& e) {
        std::string why = e.what();
        replace_all(why, kSeatMark, "{seat}");
        throw Error(why);
      }
    }
    argv = it->second;
  }
  for (std::string& w : argv) replace_all(w, kSeatMark, std::to_string(seat.index()));
  return argv;
}

std::unique_ptr<BotProcess> ExternalAgents::acquire(const std::vector<std::string>& argv, int spec_index,
                                                    game::Seat seat, std::uint64_t* game) {
  std::unique_ptr<BotProcess> process;
  {
    const std::scoped_lock lock(mu_);
    *game = ++games_;
    if (!log_dir_made_) {
      std::error_code ec;
      std::filesystem::create_directories(options_.log_dir, ec);
      if (ec) throw Error(options_.log_dir.string() + ": cannot create the folder of the agents' stderr logs: " + ec.message());
      log_dir_made_ = true;
    }
    if (auto it = idle_.find(argv); it != idle_.end()) {
      while (!it->second.empty() && !process) {
        process = std::move(it->second.back());
        it->second.pop_back();
        if (!process->running()) process.reset();  // it ended between games: start another
      }
    }
  }
  const std::filesystem::path log =
      options_.log_dir / ("agent" + std::to_string(spec_index) + "-seat" + std::to_string(seat.index()) + ".log");
  if (!process) {
    process = std::make_unique<BotProcess>(argv, log);
    std::ofstream(log, std::ios::app) << "[hydra] started process " << process->pid() << ": " << command_line(argv) << "\n";
  }
  std::ofstream(log, std::ios::app) << "[hydra] game " << *game << ", seat " << seat.index() << ", process "
                                    << process->pid() << "\n";
  return process;
}

void ExternalAgents::release(const std::vector<std::string>& argv, std::unique_ptr<BotProcess> process) {
  if (!options_.reuse || !process->running()) {
    process->close(std::chrono::milliseconds(200));
    return;
  }
  const std::scoped_lock lock(mu_);
  idle_[argv].push_back(std::move(process));
}

// ---------------------------------------------------------------------------------------------

ExternalAgent::ExternalAgent(ExternalAgents& owner, std::string name, ExternalSpec spec, int spec_index)
    : owner_(&owner), name_(std::move(name)), spec_(std::move(spec)), spec_index_(spec_index) {}

ExternalAgent::~ExternalAgent() {
  // A game cut short (an error elsewhere) leaves the process mid-game: it cannot be reused.
  if (process_) process_->kill();
}

void ExternalAgent::fail(std::string reason, std::string event, std::string reply) {
  if (fault_) return;
  if (event.empty()) event = asked_;  // the line the reply answered
  fault_ = AgentFault{name_, seat_.index(), clipped(event), clipped(reply), text::to_utf8(reason)};
  if (process_) {
    process_->kill();
    process_.reset();
  }
}

void ExternalAgent::start_game(game::Seat seat, const game::GameKey& key) {
  key_ = key;
  if (process_) process_->kill();
  process_.reset();
  seat_ = seat;
  fault_.reset();
  view_.reset();
  open_ = answered_ = ended_ = false;
  reply_.reset();
  kan_.reset();
  batch_.clear();
  asked_.clear();
  argv_ = owner_->words(spec_, seat);
  try {
    process_ = owner_->acquire(argv_, spec_index_, seat, &game_);
  } catch (const Error& e) {
    fail(e.what(), "", "");
  }
}

std::string ExternalAgent::shown(const Event& e) const {
  static const data::GameLog names = [] {
    data::GameLog g;
    for (int s = 0; s < game::kNumSeats; ++s) g.names[ix(s)] = std::to_string(s);
    return g;
  }();
  nlohmann::ordered_json j = data::to_mjai_json(e, names);
  if (e.type == EventType::start_game) {
    j["id"] = seat_.index();
    j[std::string(kGameKeyField)] = game::to_hex(key_.bytes());
  }
  if (e.type == EventType::start_kyoku)
    for (int s = 0; s < game::kNumSeats; ++s)
      if (s != seat_.index()) j["tehais"][ix(s)] = std::vector<std::string>(13, "?");
  if (e.type == EventType::tsumo && e.actor != seat_) j["pai"] = "?";
  return json::dump(j);
}

bool ExternalAgent::exchange(const std::string& line, bool start, Reply& reply) {
  asked_ = line;
  if (fault_ || !process_) return false;
  const auto limit = start ? owner_->options().start_timeout : owner_->options().reply_timeout;
  const auto deadline = Clock::now() + limit;
  const auto gone = [&](const std::string& what) {
    // A process that closed its pipes may still be exiting (an interpreter's shutdown, slow on a
    // loaded machine): give it up to 5 s to say how, and go on as soon as it has.
    for (int i = 0; i < 2500 && process_->running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    const std::string how = process_->exit_description();
    fail(what + (how.empty() ? "" : ": the process " + how), line, "");
  };
  if (process_->write_line(line, deadline) != BotProcess::Status::ok) {
    gone("could not send the event");
    return false;
  }
  switch (process_->read_line(reply.line, deadline)) {
    case BotProcess::Status::ok: break;
    case BotProcess::Status::timeout:
      fail("no reply within " + std::to_string(limit.count()) + " ms", line, "");
      return false;
    case BotProcess::Status::closed: gone("no reply: its output ended"); return false;
  }
  try {
    const nlohmann::json j = json::parse(reply.line);
    if (!j.is_object()) throw Error("a reply must be one JSON object");
    const data::ParsedLine parsed = data::parse_mjai_line(reply.line);
    if (parsed.event.type == EventType::none) {
      reply.event.reset();
    } else {
      // Read from the reply itself: a log's ryukyoku has no actor, a kyushu kyuhai reply has one.
      const auto actor = j.find("actor");
      if (actor == j.end() || !actor->is_number_integer() || actor->get<std::int64_t>() != seat_.index())
        throw Error("field 'actor': expected the seat " + std::to_string(seat_.index()));
      reply.event = parsed.event;
      reply.event->actor = seat_;
    }
  } catch (const std::exception& e) {
    fail(std::string("malformed reply: ") + e.what(), line, reply.line);
    return false;
  }
  return true;
}

std::optional<Action> ExternalAgent::match(const game::Legal& legal, game::ActionMask mask, const Reply& r) {
  if (!r.event) {
    if (mask.test(Action(Action::kPass))) return Action(Action::kPass);
    return std::nullopt;
  }
  const Event& want = *r.event;
  for (const bool loose : {false, true}) {
    for (int i = 0; i < mask.count(); ++i) {
      const Action a = mask.nth(i);
      if (a == Action(Action::kPass)) continue;
      if (a == Action(Action::kKan)) {
        for (const game::Move& k : legal.kans)
          if (same_move(k.to_event(seat_), want, loose)) {
            kan_ = k.type == EventType::ankan ? k.consumed[0].type() : k.pai.type();  // as kan_select_mask()
            return a;
          }
        continue;
      }
      if (same_move(legal.move(a).to_event(seat_), want, loose)) return a;
    }
  }
  return std::nullopt;
}

// The reply to a decision the table played itself (its only legal action) must be that action.
void ExternalAgent::check_forced(const Event* next) {
  if (!open_ || answered_ || legal_.mask.count() != 1 || fault_) return;
  // mjai.app: the decision's question is sent now, with the events up to it.
  if (spec_.flavour == MjaiFlavour::app && !flush_batch()) return;
  answered_ = true;
  if (!reply_) return;
  if (!match(legal_, legal_.mask, *reply_))
    fail("illegal reply: the only legal action was " + game::to_string(legal_.mask.nth(0)) +
             (next ? " (" + game::describe(*next) + ")" : std::string()),
         "", reply_->line);
}

bool ExternalAgent::flush_batch() {
  if (batch_.empty()) return true;
  std::string line = "[";
  for (std::size_t i = 0; i < batch_.size(); ++i) line += (i ? "," : "") + batch_[i];
  line += "]";
  const std::string first = batch_.front();
  batch_.clear();
  const bool start = first.starts_with(R"({"type":"start_game")") || first.starts_with(R"({"type":"start_kyoku")");
  Reply r;
  if (!exchange(line, start, r)) return false;
  reply_ = std::move(r);
  return true;
}

void ExternalAgent::observe(const Event& e) {
  if (fault_ || ended_) return;
  // A decision the table played itself is settled by the next event that is not a kan dora.
  if (e.type != EventType::dora) check_forced(&e);
  if (fault_) return;
  if (e.type == EventType::start_game || !view_) view_.emplace(seat_, owner_->rules());
  view_->apply(e);
  const bool opens = MjaiBot::opens_decision(e, seat_);
  if (opens) {
    view_->legal(legal_);
    open_ = MjaiBot::can_act(legal_.mask);
    answered_ = false;
    reply_.reset();
  } else if (e.type != EventType::dora) {
    open_ = false;  // a dora after a rinshan draw keeps that draw's decision open
  }
  const std::string line = shown(e);
  if (spec_.flavour == MjaiFlavour::classic) {
    Reply r;
    if (!exchange(line, e.type == EventType::start_game || e.type == EventType::start_kyoku, r)) return;
    if (open_ && !answered_) {
      // The opener's reply, or a later one that is not "none" (a bot may answer after the dora).
      if (opens || r.event) reply_ = std::move(r);
    } else if (r.event) {
      fail("replied with an action where the seat cannot act", line, r.line);
      return;
    }
  } else {
    switch (e.type) {
      case EventType::start_game:
      case EventType::end_kyoku:
      case EventType::end_game: {
        batch_.clear();  // mjai.app drops the kyoku's events that no question carried
        Reply r;
        if (!exchange("[" + line + "]", e.type == EventType::start_game, r)) return;
        break;
      }
      default: batch_.push_back(line);
    }
  }
  if (e.type == EventType::end_game) finish_game();
}

game::Action ExternalAgent::act(const game::PlayerView& view, const game::Decision& d) {
  const auto stand_in = [&] {
    const Action pass(Action::kPass);
    return d.mask.test(pass) ? pass : d.mask.nth(0);
  };
  if (fault_) return stand_in();
  const bool kan_select = d.phase == game::Phase::kan_select;
  if (kan_select) {
    // The kan reply named the tile (a forced kan action is settled here).
    if (!answered_ && open_) check_forced(nullptr);
    if (fault_) return stand_in();
    if (kan_ && d.mask.test(Action::kan_select(*kan_))) return Action::kan_select(*kan_);
    fail("the kan reply names no kan candidate", "", reply_ ? reply_->line : "");
    return stand_in();
  }
  if (!open_ || answered_) {
    fail("internal: asked for a decision the events did not open (" + std::string(game::to_string(d.phase)) + ")", "", "");
    return stand_in();
  }
  if (spec_.flavour == MjaiFlavour::app && !flush_batch()) return stand_in();
  answered_ = true;
  if (!reply_) {
    fail("no reply to the decision", "", "");
    return stand_in();
  }
  game::Legal legal;
  view.legal(legal);
  const std::optional<Action> a = match(legal, d.mask, *reply_);
  if (!a) {
    fail(reply_->event ? "illegal reply: not one of the legal actions (" + game::to_string(d.mask) + ")"
                       : "\"none\" where the seat must act (" + game::to_string(d.mask) + ")",
         "", reply_->line);
    return stand_in();
  }
  return *a;
}

void ExternalAgent::finish_game() {
  ended_ = true;
  if (process_ && !fault_) owner_->release(argv_, std::move(process_));
}

}  // namespace hydra::selfplay
