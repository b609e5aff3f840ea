#pragma once

// 1v3 duplicate evaluation (docs/EVAL.md): every wall seed is played four times, the
// challenger at seat 0, 1, 2 and 3 in turn and the champion in the other three seats. Seed i
// uses the game key game_key(master, i) in all four games, so the four games share their walls
// (wall keys depend on the game key, kyoku and honba only) and luck of the deal cancels out.
// The seeds are first_seed .. first_seed + seeds - 1: a long evaluation runs in parts whose
// seeds are those of the whole run, and its reports pool by seed (scripts/pool_eval.py).
// The games are played by play_games (play.hpp) on the lock-step engine: checkpoint agents'
// decisions are batched across games, every other agent answers inline, games end in parallel.
// Each game depends only on its seed and seat assignment, so the results do not depend on the
// thread count.
//
// Sequential test (optional): seeds are played in batches of `batch`; after each batch the
// paired challenger-minus-champion difference of average rank is tested with a Bonferroni
// correction over the K = ceil(seeds / batch) planned looks: its interval uses
// z = Phi^-1(1 - 0.05 / (2K)) instead of 1.96, which keeps the chance of a false "settled" at
// every look together at or below 5%. The run stops at the first look where that interval
// excludes 0 (a significant difference), or, with margin > 0, where it lies inside
// (-margin, +margin) (equivalent within the margin). Looks fall on fixed seed counts, so an
// early stop is as reproducible as a full run.

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hydra/game/seed.hpp"
#include "hydra/selfplay/eval_stats.hpp"
#include "hydra/selfplay/play.hpp"

namespace hydra::selfplay {

struct SequentialOptions {
  bool enabled = false;
  int batch = 50;       // seeds per look
  double margin = 0;    // average-rank equivalence margin; 0: stop only on a significant difference
};

struct EvalOptions {
  std::string challenger = "bot:greedy";
  std::string champion = "bot:random";
  std::uint64_t seeds = 100;
  std::uint64_t first_seed = 0;  // the first wall seed's index (a part of a longer evaluation)
  game::MasterSeed master;
  std::string rules = "tenhou";
  // Makes the agents; empty: make_bot (built-in agents only). Checkpoint agents come from the
  // torch library (model_agent.hpp).
  AgentFactory make_agent;
  std::optional<std::filesystem::path> logs;  // one gzipped mjai file per game when set
  SequentialOptions sequential;
  // With a journal (eval_journal.hpp), the seeds it already holds are read back instead of played,
  // and every seed is written to it the moment its four games have ended, so a run stopped part
  // way continues where it stopped. `play` says what else decides the games besides the agents'
  // names, the rules and the master seed (the play mode: argmax or sampled at a temperature, and
  // the device); the journal is continued only by a run of the same identity.
  std::optional<std::filesystem::path> journal;
  std::string play = "argmax";
  // Called with (games finished, games planned) from worker threads, one call at a time; games
  // read back from a journal count as finished from the first call.
  std::function<void(std::uint64_t, std::uint64_t)> progress;
};

struct SequentialResult {
  int looks = 0, max_looks = 0;
  double z = 0;
  bool stopped_early = false;
  std::string reason;  // "difference", "equivalent" or "" (ran to the end)
  Estimate last;       // the adjusted interval at the last look
};

// A game voided by an agent's fault (external_agent.hpp).
struct VoidedGame {
  std::uint64_t seed = 0;
  int challenger_seat = 0;
  AgentFault fault;
};

struct EvalResult {
  // In seed order; fewer than asked when stopped early or when a seed had a void game (then none
  // of its four games counts, and `voided` says why).
  std::vector<SeedGames> seeds;
  std::vector<VoidedGame> voided;  // in seed and seat order
  std::uint64_t seeds_voided = 0;
  SequentialResult sequential;
  std::uint64_t games = 0;
  long kyoku = 0, decisions = 0;
  std::uint64_t seeds_from_journal = 0;  // of `seeds`, those read back instead of played
};

// Plays the evaluation. Agents are named as options.make_agent (default make_bot()) takes them.
EvalResult run_eval(const EvalOptions& options);

}  // namespace hydra::selfplay
