// hydra bot --model bot:NAME|CHECKPOINT [--seat N] [--seed S] [--rules NAME] [--device D]
//           [--sample [--temperature T]]
// Plays one seat as an mjai bot over stdin/stdout (selfplay/mjai_bot.hpp): one reply line per
// input line. A malformed or impossible line gets one error line on stderr and the bot goes on.
// A checkpoint agent (selfplay/model_agent.hpp) reads every event of each line the bot took (a
// refused line is taken by neither), as the bot's view took it, before the bot asks it for a
// decision. An explicit --seat wins over start_game's id.

#include <chrono>
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

void run_bot(const BotFlags& f) {
  std::optional<game::Seat> seat;
  if (f.seat >= 0) seat = game::Seat(f.seat);  // checked by the flag (0-3)
  const game::TableRules& rules = game::table_rules(f.rules);
  selfplay::ModelAgents agents = f.agent.make({f.model}, rules);
  const CommandThreads threads(1);  // one row per decision (command_threads.hpp)
  std::unique_ptr<game::Agent> agent = agents.make(f.model);
  auto* observer = dynamic_cast<selfplay::ObservingAgent*>(agent.get());
  // The agent's random stream is a KDF child of this key, so a game replays with the same seed.
  selfplay::MjaiBot bot(std::move(agent), rules, seat, game::game_key(game::MasterSeed{f.seed}, 0));
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
  const auto t0 = std::chrono::steady_clock::now();
  std::string line;
  long number = 0;
  while (std::getline(std::cin, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
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
    std::cout << reply << std::endl;  // flushed: the host waits for it
  }
  // A search agent's decisions, searches and seconds per searched decision, on stderr.
  log_searches(agents, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
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
