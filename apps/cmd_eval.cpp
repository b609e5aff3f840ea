// hydra eval --challenger A --champion B --seeds N [--seed S] [--json] [--logs DIR]
//            [--sequential [--batch K] [--margin M]] [--rules NAME] [--threads T]
//            [--device D] [--sample [--temperature T]] [--journal FILE]
// 1v3 duplicate evaluation (selfplay/duplicate.hpp): the report (table, or JSON with --json) goes to
// stdout and depends only on the flags, so the same seed prints the same bytes; progress and
// throughput go to stderr. An agent is a built-in bot (bot:...) or a checkpoint path
// (selfplay/model_agent.hpp), greedy argmax unless --sample, or an external mjai bot process
// (mjai:COMMAND, mjai.app:COMMAND; selfplay/external_agent.hpp): a game it fails in is void and
// listed in the report.

#include <chrono>
#include <iostream>
#include <memory>


#include "agent_flags.hpp"
#include "command_threads.hpp"
#include "commands.hpp"
#include "external_flags.hpp"
#include "flag_checks.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/log.hpp"
#include "hydra/common/metrics.hpp"
#include "hydra/selfplay/duplicate.hpp"
#include "hydra/selfplay/eval_report.hpp"
#include "hydra/selfplay/model_agent.hpp"
#include "hydra/selfplay/search.hpp"

namespace hydra::apps {
namespace {

struct EvalFlags {
  selfplay::EvalOptions eval;
  std::uint64_t seed = 0;
  bool seed_given = false;
  bool json = false;
  std::string logs;
  std::string journal;
  int threads = 0;
  AgentFlags agent;
  ExternalFlags external;
};

void run_eval(EvalFlags f) {
  selfplay::ModelAgents agents = f.agent.make({f.eval.challenger, f.eval.champion}, game::table_rules(f.eval.rules));
  f.eval.master = game::MasterSeed{f.seed_given ? f.seed : game::random_master_seed().value};
  if (!f.seed_given) log::info("eval: no --seed given, using {}", f.eval.master.value);
  if (!f.logs.empty()) f.eval.logs = f.logs;
  if (!f.journal.empty()) f.eval.journal = f.journal;
  f.eval.play = f.agent.play_mode();
  const CommandThreads threads(f.threads);
  agents.set_external(f.external.options());
  if (selfplay::is_external_name(f.eval.challenger) || selfplay::is_external_name(f.eval.champion))
    log::info("eval: stderr of the external agents goes to {}/", f.external.log_dir);
  f.eval.make_agent = agents.factory();
  const auto t0 = std::chrono::steady_clock::now();
  auto last = t0;
  metrics::Progress meter(static_cast<std::int64_t>(f.eval.seeds * game::kNumSeats));  // the planned games
  f.eval.progress = [&](std::uint64_t done, std::uint64_t planned) {
    const auto now = std::chrono::steady_clock::now();
    if (now - last < std::chrono::seconds(5) && done != planned) return;
    last = now;
    log::info("eval: games {}", meter.line(static_cast<std::int64_t>(done)));
  };
  const selfplay::EvalResult r = selfplay::run_eval(f.eval);
  if (f.eval.journal)
    log::info("eval: {} of {} seeds read back from the journal {}, the rest played and written to it", r.seeds_from_journal,
              f.eval.seeds, f.journal);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (f.json) std::cout << json::dump(selfplay::report_json(f.eval, r), 2) << "\n";
  else std::cout << selfplay::report_table(f.eval, r);
  std::cout.flush();
  log::info("eval: {} games in {:.2f} s, {:.1f} games/s", r.games, seconds, static_cast<double>(r.games) / seconds);
  log_searches(agents, seconds);
}

}  // namespace

void register_eval(CLI::App& app) {
  auto f = std::make_shared<EvalFlags>();
  CLI::App* cmd = app.add_subcommand("eval", "1v3 duplicate evaluation of a challenger against a champion");
  cmd->add_option("--challenger", f->eval.challenger,
                  "the agent under test: bot:greedy, bot:random, bot:tsumogiri, a checkpoint file, a search over one "
                  "('search:CKPT[:walls=8:threshold=0.1:...]', docs/EVAL.md), or an external "
                  "mjai bot: 'mjai:COMMAND' (classic protocol) or 'mjai.app:COMMAND' ({seat} is replaced by the seat)")
      ->required();
  cmd->add_option("--champion", f->eval.champion, "the agent in the other three seats")->required();
  cmd->add_option("--seeds", f->eval.seeds, "wall seeds; each is played 4 times")->check(integer_in(1, kMaxGames))->capture_default_str();
  cmd->add_option("--first-seed", f->eval.first_seed,
                  "index of the first wall seed: a long evaluation in parts (--first-seed 0 --seeds 50, then 50 and 50, "
                  "...) plays the whole run's seeds; scripts/pool_eval.py pools the parts' --json reports")
      ->check(integer_in(0, kMaxGames))
      ->capture_default_str();
  cmd->add_option("--seed", f->seed, "master seed (random and logged when absent)")
      ->check(seed_value())
      ->each([f](const std::string&) { f->seed_given = true; });
  cmd->add_flag("--json", f->json, "print the report as JSON");
  cmd->add_option("--logs", f->logs, "write every game as a gzipped mjai log into this folder");
  cmd->add_option("--journal", f->journal,
                  "keep every finished seed in this file as it ends; the same command given the same file after a stop "
                  "(Ctrl-C, kill) plays only the seeds it lacks, and its report covers them all");
  cmd->add_option("--rules", f->eval.rules, kRulesHelp)->capture_default_str();
  add_threads_flag(*cmd, f->threads, "worker threads (0: all cores)");
  cmd->add_flag("--sequential", f->eval.sequential.enabled,
                "stop early once the average-rank difference is settled (see docs/EVAL.md)");
  cmd->add_option("--batch", f->eval.sequential.batch, "seeds per look of the sequential test")->check(integer_in(1, kMaxGames))->capture_default_str();
  cmd->add_option("--margin", f->eval.sequential.margin,
                  "sequential test: also stop when the difference lies within +-margin ranks")
      ->check(number_in(0.0, 3.0))
      ->capture_default_str();
  f->agent.add_to(*cmd);
  f->external.add_to(*cmd);
  cmd->callback([f] { run_eval(*f); });
}

}  // namespace hydra::apps
