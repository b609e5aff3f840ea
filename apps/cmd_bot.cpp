// hydra bot --model bot:NAME|CHECKPOINT [--seat N] [--seed S] [--rules NAME] [--device D]
//           [--sample [--temperature T]]
// Plays one seat as an mjai bot over stdin/stdout (selfplay/mjai_bot.hpp): one reply line per
// input line. A malformed or impossible line gets one error line on stderr and the bot goes on.
// A checkpoint agent (selfplay/model_agent.hpp) reads every event of each line the bot took (a
// refused line is taken by neither), as the bot's view took it, before the bot asks it for a
// decision. An explicit --seat wins over start_game's id. At the end of the input it logs how
// long the replies that asked the agent took (the wait a host sees), on stderr.

#include <chrono>
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "agent_flags.hpp"
#include "command_threads.hpp"
#include "commands.hpp"
#include "flag_checks.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/log.hpp"
#include "hydra/common/text.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/mjai_bot.hpp"
#include "hydra/selfplay/model_agent.hpp"

namespace hydra::apps {
namespace {

struct BotFlags {
  std::string model;
  int seat = -1;
  std::uint64_t seed = 0;
  std::string rules = "tenhou";
  AgentFlags agent;
};

// The agent, counting the decisions it is asked (a kan's tile is a second decision of the same
// reply): the bot asks it only when its seat has a choice, so a reply during which the count
// moved is one whose time the agent's thinking is in.
class CountedAgent final : public game::Agent {
 public:
  explicit CountedAgent(std::unique_ptr<game::Agent> inner) : inner_(std::move(inner)) {}
  std::string_view name() const override { return inner_->name(); }
  void start_game(game::Seat seat, const game::GameKey& key) override { inner_->start_game(seat, key); }
  game::Action act(const game::PlayerView& view, const game::Decision& d) override {
    ++asked_;
    return inner_->act(view, d);
  }
  std::uint64_t asked() const { return asked_; }

 private:
  std::unique_ptr<game::Agent> inner_;
  std::uint64_t asked_ = 0;
};

// The replies that asked the agent: how many, their total and longest time, and the line of the
// longest.
struct ReplyTimes {
  std::uint64_t replies = 0;
  double seconds = 0;
  double longest = 0;
  long longest_line = 0;

  void add(double s, long line) {
    ++replies;
    seconds += s;
    if (s > longest) {
      longest = s;
      longest_line = line;
    }
  }
};

void run_bot(const BotFlags& f) {
  std::optional<game::Seat> seat;
  if (f.seat >= 0) seat = game::Seat(f.seat);  // checked by the flag (0-3)
  const game::TableRules& rules = game::table_rules(f.rules);
  selfplay::ModelAgents agents = f.agent.make({f.model}, rules);
  const CommandThreads threads(1);  // one row per decision (command_threads.hpp)
  std::unique_ptr<game::Agent> agent = agents.make(f.model);
  auto* observer = dynamic_cast<selfplay::ObservingAgent*>(agent.get());
  auto counted = std::make_unique<CountedAgent>(std::move(agent));
  const CountedAgent& asked = *counted;
  // The agent's random stream is a KDF child of this key, so a game replays with the same seed.
  selfplay::MjaiBot bot(std::move(counted), rules, seat, game::game_key(game::MasterSeed{f.seed}, 0));
  // The agent sees each event as the bot's view took it (start_kyoku with the totals the bot
  // filled in), before the bot asks it for a decision. An event the agent's own view rejects is
  // one the bot's view rejected first.
  if (observer)
    bot.set_event_hook([observer](const game::Event& e) {
      try {
        observer->observe(e);
      } catch (const Error&) {
      }
    });
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  ReplyTimes times;
  std::string line;
  long number = 0;
  while (std::getline(std::cin, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const auto before = asked.asked();
    const auto start = Clock::now();
    std::string reply;
    try {
      reply = bot.react(line);
    } catch (const Error& e) {
      std::cerr << "hydra bot: line " << number << ": " << text::to_utf8(e.what()) << std::endl;
      reply = selfplay::reply_line(std::nullopt);
    } catch (const std::exception& e) {
      // A bug must not end a hosted game either: report it and keep answering.
      std::cerr << "hydra bot: line " << number << ": internal error: " << text::to_utf8(e.what()) << std::endl;
      reply = selfplay::reply_line(std::nullopt);
    }
    if (asked.asked() != before) times.add(std::chrono::duration<double>(Clock::now() - start).count(), number);
    std::cout << reply << std::endl;  // flushed: the host waits for it
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  log::info("bot: {} lines in {:.2f} s; {} replies asked the agent ({} decisions), {:.2f} ms each, the longest "
            "{:.2f} ms (line {})",
            number, seconds, times.replies, asked.asked(),
            times.replies > 0 ? 1e3 * times.seconds / static_cast<double>(times.replies) : 0.0, 1e3 * times.longest,
            times.longest_line);
  // A search agent's decisions, searches and seconds per searched decision, on stderr.
  log_searches(agents, seconds);
}

}  // namespace

void register_bot(CLI::App& app) {
  auto f = std::make_shared<BotFlags>();
  CLI::App* cmd = app.add_subcommand("bot", "play one seat as an mjai bot over stdin/stdout");
  cmd->add_option("--model", f->model, "bot:greedy, bot:random, bot:tsumogiri, a checkpoint file, or search:CKPT[:KEY=VALUE...] (docs/EVAL.md \"Search\")")->required();
  cmd->add_option("--seat", f->seat, "the seat 0-3 (default: start_game's \"id\")")->check(integer_in(0, 3));
  cmd->add_option("--seed", f->seed, "seed of the agent's random stream")->check(seed_value())->capture_default_str();
  cmd->add_option("--rules", f->rules, kRulesHelp)->capture_default_str();
  f->agent.add_to(*cmd);
  cmd->callback([f] { run_bot(*f); });
}

}  // namespace hydra::apps
