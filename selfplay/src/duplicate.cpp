// The 1v3 duplicate evaluation (duplicate.hpp; docs/EVAL.md).

#include "hydra/selfplay/duplicate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <mutex>

#include <utility>
#include <vector>

#include "hydra/common/error.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/game/runner.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/common/index.hpp"

namespace hydra::selfplay {
namespace {

struct GameOut {
  GameStats stats{};
  int kyoku = 0, decisions = 0;
  std::vector<AgentFault> faults;  // non-empty: the game is void
};

std::unique_ptr<game::Agent> make(const EvalOptions& o, const std::string& name) {
  return o.make_agent ? o.make_agent(name) : make_bot(name);
}

using Agents = std::array<std::unique_ptr<game::Agent>, game::kNumSeats>;

Agents make_agents(const EvalOptions& o, int challenger_seat) {
  Agents agents;
  for (int s = 0; s < game::kNumSeats; ++s)
    agents[ix(s)] = make(o, s == challenger_seat ? o.challenger : o.champion);
  return agents;
}

GameOut game_out(const EvalOptions& o, const game::TableRules& rules, std::uint64_t seed, int challenger_seat,
                 game::GameResult r, std::vector<AgentFault> faults) {
  GameOut out;
  out.faults = std::move(faults);
  if (!out.faults.empty()) return out;  // void: neither scored nor logged
  out.stats = game_stats(r.events, r.final_scores, rules.uma_eval);
  out.kyoku = r.kyoku;
  out.decisions = r.decisions;
  if (o.logs) {
    data::GameLog log;
    for (int s = 0; s < game::kNumSeats; ++s)
      log.names[ix(s)] = s == challenger_seat ? o.challenger : o.champion;
    log.uri = "hydra-eval:seed=" + std::to_string(o.master.value) + ":game=" + std::to_string(seed) +
              ":challenger-seat=" + std::to_string(challenger_seat) + ":rules=" + rules.name;
    log.events = std::move(r.events);
    char name[64];
    std::snprintf(name, sizeof name, "seed_%06llu_seat%d.json.gz", static_cast<unsigned long long>(seed),
                  challenger_seat);
    data::write_mjai(*o.logs / name, log);
  }
  return out;
}

// Plays the games (seed, challenger seat) with play_games: out[i] is filled from the worker that
// ended game i; the progress calls come one at a time.
void play_all(const EvalOptions& o, const game::TableRules& rules,
              const std::vector<std::pair<std::uint64_t, int>>& games, std::vector<GameOut>& out,
              const std::function<void()>& on_finished) {
  std::mutex progress_mutex;
  play_games(
      rules, games.size(), play_slots({o.challenger, o.champion}),
      [&](std::size_t i) {
        const auto [seed, seat] = games[i];
        return GameStart{make_agents(o, seat), game::game_key(o.master, seed)};
      },
      [&](PlayedGame g) {
        const auto [seed, seat] = games[g.index];
        out[g.index] = game_out(o, rules, seed, seat, std::move(g.result), std::move(g.faults));
        const std::scoped_lock lock(progress_mutex);
        on_finished();
      });
}

}  // namespace

EvalResult run_eval(const EvalOptions& o) {
  if (o.seeds < 1) throw Error("--seeds must be at least 1");
  if (o.first_seed > std::numeric_limits<std::uint64_t>::max() - o.seeds)
    throw Error("--first-seed plus --seeds passes the largest seed index");
  (void)make(o, o.challenger);  // names checked (and checkpoints loaded) before any game runs
  (void)make(o, o.champion);
  const game::TableRules& rules = game::table_rules(o.rules);
  if (o.logs) {
    std::error_code ec;
    std::filesystem::create_directories(*o.logs, ec);
    if (ec) throw Error(o.logs->string() + ": cannot create the log folder: " + ec.message());
  }
  if (o.sequential.enabled && o.sequential.batch < 2) throw Error("the sequential batch must be at least 2 seeds");

  const std::uint64_t batch = o.sequential.enabled ? static_cast<std::uint64_t>(o.sequential.batch) : o.seeds;
  EvalResult res;
  res.sequential.max_looks = static_cast<int>((o.seeds + batch - 1) / batch);
  res.sequential.z = o.sequential.enabled ? normal_quantile(1 - 0.05 / (2.0 * res.sequential.max_looks)) : 1.96;
  std::uint64_t finished = 0;
  const std::uint64_t planned = o.seeds * game::kNumSeats;

  for (std::uint64_t first = 0; first < o.seeds; first += batch) {
    const std::uint64_t count = std::min(batch, o.seeds - first);
    const std::uint64_t base = o.first_seed + first;  // this batch's first wall seed
    std::vector<GameOut> games(static_cast<std::size_t>(count * game::kNumSeats));
    std::vector<std::pair<std::uint64_t, int>> list;
    for (std::size_t g = 0; g < games.size(); ++g)
      list.emplace_back(base + g / game::kNumSeats, static_cast<int>(g % game::kNumSeats));
    play_all(o, rules, list, games, [&] {
      if (o.progress) o.progress(++finished, planned);
    });
    for (std::uint64_t i = 0; i < count; ++i) {
      // A seed with a void game cannot be paired: none of its four games is scored, and every
      // fault is reported.
      bool whole = true;
      for (std::size_t c = 0; c < game::kNumSeats; ++c)
        for (const AgentFault& f : games[ix(i) * game::kNumSeats + c].faults) {
          res.voided.push_back(VoidedGame{base + i, static_cast<int>(c), f});
          whole = false;
        }
      if (!whole) {
        ++res.seeds_voided;
        continue;
      }
      SeedGames sg;
      sg.seed = base + i;
      for (std::size_t c = 0; c < game::kNumSeats; ++c) {
        const GameOut& g = games[ix(i) * game::kNumSeats + c];
        sg.games[c] = g.stats;
        res.kyoku += g.kyoku;
        res.decisions += g.decisions;
      }
      res.seeds.push_back(sg);
    }
    res.games = res.seeds.size() * game::kNumSeats;
    if (!o.sequential.enabled) continue;
    ++res.sequential.looks;
    const Metric& rank = metrics().front();
    const Estimate d = paired_difference(challenger_sums(res.seeds, rank), champion_sums(res.seeds, rank), res.sequential.z);
    res.sequential.last = d;
    if (std::isnan(d.lo) || first + count >= o.seeds) continue;
    if (d.lo > 0 || d.hi < 0) res.sequential.reason = "difference";
    else if (o.sequential.margin > 0 && d.lo > -o.sequential.margin && d.hi < o.sequential.margin)
      res.sequential.reason = "equivalent";
    if (!res.sequential.reason.empty()) {
      res.sequential.stopped_early = true;
      break;
    }
  }
  return res;
}

}  // namespace hydra::selfplay
