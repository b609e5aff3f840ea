// hydra selfplay --agents A,B,C,D | --model CKPT  --games N --seed S --out DIR [--rules NAME]
//                [--threads T] [--device D] [--sample [--temperature T]]
// Plays N games with the named agents (seat order; --model CKPT: the checkpoint in all four) with
// selfplay::play_games (play.hpp: the lock-step engine, checkpoint agents' decisions batched
// across games as in hydra eval, games ending in parallel), and writes each as a gzipped Mortal-dialect mjai log
// (DIR/logs/game_000000.json.gz ...) plus DIR/stats.json. An agent is a built-in bot (bot:random,
// bot:tsumogiri, bot:greedy; "random" and "tsumogiri" also work) or a checkpoint file
// (selfplay/model_agent.hpp). Every game depends only on the master seed and its index
// (seed.hpp), so the same seed writes byte-identical logs whatever the thread count. A search:
// agent's searched decisions carry what it weighed in the action's line ("meta", docs/LOGS.md).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent_flags.hpp"
#include "command_threads.hpp"
#include "commands.hpp"
#include "external_flags.hpp"
#include "flag_checks.hpp"
#include "hydra/common/atomic_file.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/log.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/data/text_file.hpp"
#include "hydra/game/agent.hpp"
#include "hydra/game/runner.hpp"
#include "hydra/selfplay/play.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/game_stats.hpp"
#include "hydra/selfplay/model_agent.hpp"
#include "hydra/common/index.hpp"

namespace hydra::apps {
namespace {

namespace fs = std::filesystem;

struct SelfplayOptions {
  std::string agents = "random,random,random,random";
  std::string model;
  long games = 1;
  std::uint64_t seed = 0;
  bool seed_given = false;
  std::string out;
  std::string rules = "tenhou";
  int threads = 0;
  AgentFlags agent;
  ExternalFlags external;
};

// The four agent names; the short built-in names of the first version ("random", "tsumogiri")
// read as their bot: names.
std::vector<std::string> split_agents(const SelfplayOptions& o) {
  if (!o.model.empty()) return std::vector<std::string>(game::kNumSeats, o.model);
  std::vector<std::string> out;
  std::stringstream in(o.agents);
  std::string item;
  while (std::getline(in, item, ',')) {
    const auto names = game::agent_names();
    const bool short_name = std::find(names.begin(), names.end(), item) != names.end();
    out.push_back(short_name ? std::string(selfplay::kBotPrefix) + item : item);
  }
  if (out.size() != game::kNumSeats)
    throw Error("--agents: expected 4 comma-separated agents, got '" + o.agents + "'");
  return out;
}

// Per-game summary kept for the stats file (the logs go straight to disk).
struct GameSummary {
  game::Scores final_scores{};
  std::array<int, game::kNumSeats> ranks{};
  int kyoku = 0, decisions = 0, horas = 0, ryukyokus = 0;
  std::array<int, game::kNumSeats> wins{}, deal_ins{};
  std::vector<selfplay::AgentFault> faults;  // non-empty: the game is void (no log, not counted)
};

void run_selfplay(const SelfplayOptions& o) {
  const auto names = split_agents(o);
  if (o.games < 1) throw Error("--games must be at least 1");
  const game::TableRules& rules = game::table_rules(o.rules);
  selfplay::ModelAgents factory = o.agent.make(names, rules);
  const CommandThreads threads(o.threads);
  factory.set_external(o.external.options());
  for (const std::string& a : names) (void)factory.make(a);  // names checked, checkpoints loaded

  const game::MasterSeed master{o.seed_given ? o.seed : game::random_master_seed().value};
  if (!o.seed_given) log::info("selfplay: no --seed given, using {}", master.value);
  const fs::path out(o.out);
  std::error_code ec;
  fs::create_directories(out / "logs", ec);
  if (ec) throw Error(out.string() + ": cannot create the output folder: " + ec.message());

  std::vector<GameSummary> summaries(ix(o.games));
  // Summary and log of one finished game (games are independent: any order writes the same files).
  const auto record = [&](selfplay::PlayedGame played) {
    const std::size_t g = played.index;
    game::GameResult& r = played.result;
    GameSummary& sum = summaries[g];
    if (!played.faults.empty()) {
      for (const selfplay::AgentFault& f : played.faults)
        log::warn("selfplay: game {} is void: {}", g, selfplay::describe(f));
      sum.faults = std::move(played.faults);
      return;
    }
    sum.final_scores = r.final_scores;
    sum.ranks = r.ranks;
    sum.kyoku = r.kyoku;
    sum.decisions = r.decisions;
    const selfplay::GameStats counts = selfplay::game_stats(r.events, r.final_scores, rules.uma_eval);
    for (std::size_t s = 0; s < game::kNumSeats; ++s) {
      sum.wins[s] = counts[s].wins;
      sum.deal_ins[s] = counts[s].deal_ins;
      sum.horas += counts[s].wins;  // one hora event per winner
    }
    sum.ryukyokus = counts[0].ryuukyoku;  // the same for every seat
    data::GameLog log;
    for (int s = 0; s < game::kNumSeats; ++s) log.names[ix(s)] = names[ix(s)];
    log.uri = "hydra-selfplay:seed=" + std::to_string(master.value) + ":game=" + std::to_string(g) + ":rules=" + rules.name;
    log.events = std::move(r.events);
    log.searches = std::move(played.searches);  // each search: agent's decision, as the action's "meta"
    char name[32];
    std::snprintf(name, sizeof name, "game_%06zu.json.gz", g);
    data::write_mjai(out / "logs" / name, log);
  };
  const auto t0 = std::chrono::steady_clock::now();
  // The engine batches checkpoint agents' decisions across games; bots answer inline.
  selfplay::play_games(
      rules, ix(o.games), selfplay::play_slots(names),
      [&](std::size_t g) {
        selfplay::GameStart start;
        for (std::size_t s = 0; s < game::kNumSeats; ++s) start.agents[s] = factory.make(names[s]);
        start.key = game::game_key(master, static_cast<std::uint64_t>(g));
        return start;
      },
      record);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  nlohmann::ordered_json seats = nlohmann::ordered_json::array();
  long kyoku = 0, decisions = 0, horas = 0, ryukyokus = 0;
  // Void games (an external agent's fault) are listed, not counted.
  nlohmann::ordered_json voided = nlohmann::ordered_json::array();
  for (std::size_t g = 0; g < summaries.size(); ++g)
    for (const selfplay::AgentFault& f : summaries[g].faults)
      voided.push_back({{"game", g}, {"agent", f.agent}, {"seat", f.seat}, {"reason", f.reason}, {"event", f.event}, {"reply", f.reply}});
  std::erase_if(summaries, [](const GameSummary& s) { return !s.faults.empty(); });
  for (const GameSummary& s : summaries) {
    kyoku += s.kyoku;
    decisions += s.decisions;
    horas += s.horas;
    ryukyokus += s.ryukyokus;
  }
  const double n = static_cast<double>(summaries.size());
  for (int seat = 0; seat < game::kNumSeats; ++seat) {
    const auto i = ix(seat);
    double score = 0, rank = 0, pt = 0, wins = 0, deal_ins = 0;
    std::array<long, game::kNumSeats> rank_counts{};
    for (const GameSummary& s : summaries) {
      score += s.final_scores[i];
      rank += s.ranks[i] + 1;
      ++rank_counts[static_cast<std::size_t>(s.ranks[i])];
      pt += game::placement_points(s.final_scores, rules.uma_eval, rules)[i];
      wins += s.wins[i];
      deal_ins += s.deal_ins[i];
    }
    seats.push_back({{"seat", seat}, {"agent", names[i]}, {"mean_score", score / n}, {"mean_rank", rank / n},
                     {"ranks", rank_counts}, {"mean_pt", pt / n}, {"wins_per_game", wins / n},
                     {"deal_ins_per_game", deal_ins / n}});
  }
  nlohmann::ordered_json j;
  j["seed"] = master.value;
  j["rules"] = rules.name;
  j["games"] = summaries.size();
  j["games_voided"] = ix(o.games) - summaries.size();
  if (!voided.empty()) j["voided"] = voided;
  j["seats"] = seats;
  j["kyoku_per_game"] = static_cast<double>(kyoku) / n;
  j["decisions_per_game"] = static_cast<double>(decisions) / n;
  j["hora_per_kyoku"] = static_cast<double>(horas) / static_cast<double>(kyoku);
  j["ryukyoku_per_kyoku"] = static_cast<double>(ryukyokus) / static_cast<double>(kyoku);
  j["seconds"] = seconds;
  j["games_per_second"] = n / seconds;
  write_file_atomic(out / "stats.json", json::dump(j, 2) + "\n");
  if (!voided.empty())
    std::cout << "selfplay: " << voided.size() << " agent fault(s) voided " << (ix(o.games) - summaries.size())
              << " game(s): no log written for them; see stats.json \"voided\"\n";
  std::cout << "selfplay: " << summaries.size() << (summaries.size() == 1 ? " game (" : " games (") << rules.name << ", seed " << master.value << ") in " << seconds
            << " s, " << n / seconds << " games/s; logs in " << (out / "logs").string() << ", stats in " << (out / "stats.json").string() << "\n";
}

}  // namespace

void register_selfplay(CLI::App& app) {
  auto opts = std::make_shared<SelfplayOptions>();
  CLI::App* cmd = app.add_subcommand("selfplay", "play games between agents and write gzipped mjai logs and stats");
  cmd->add_option("--agents", opts->agents,
                  "four agents in seat order: bot:random, bot:tsumogiri, bot:greedy, checkpoint files, searches "
                  "(search:CKPT[:KEY=VALUE...]) or external mjai "
                  "bots (mjai:COMMAND, mjai.app:COMMAND; a command must not contain a comma here)")
      ->capture_default_str();
  cmd->add_option("--model", opts->model, "a checkpoint file playing all four seats (instead of --agents)");
  cmd->add_option("--games", opts->games, "number of games")->check(integer_in(1, kMaxGames))->capture_default_str();
  cmd->add_option("--seed", opts->seed, "master seed (random and logged when absent)")
      ->check(seed_value())
      ->each([opts](const std::string&) { opts->seed_given = true; });
  cmd->add_option("--out,-o", opts->out, "output folder (created if missing)")->required();
  cmd->add_option("--rules", opts->rules, kRulesHelp)->capture_default_str();
  add_threads_flag(*cmd, opts->threads, "worker threads (0: all cores)");
  opts->agent.add_to(*cmd);
  opts->external.add_to(*cmd);
  cmd->callback([opts] { run_selfplay(*opts); });
}

}  // namespace hydra::apps
