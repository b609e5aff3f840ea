#include "hydra/selfplay/arena.hpp"

#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>

#include "hydra/common/error.hpp"
#include "hydra/common/parallel.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/game/runner.hpp"
#include "hydra/selfplay/bots.hpp"

namespace hydra::selfplay {
namespace {

struct GameOut {
  GameStats stats{};
  int kyoku = 0, decisions = 0;
};

std::unique_ptr<game::Agent> make(const EvalOptions& o, const std::string& name) {
  return o.make_agent ? o.make_agent(name) : make_bot(name);
}

GameOut play_one(const EvalOptions& o, const game::TableRules& rules, std::uint64_t seed, int challenger_seat) {
  std::array<std::unique_ptr<game::Agent>, game::kNumSeats> agents;
  std::array<game::Agent*, game::kNumSeats> seats{};
  for (int s = 0; s < game::kNumSeats; ++s) {
    agents[static_cast<std::size_t>(s)] = make(o, s == challenger_seat ? o.challenger : o.champion);
    seats[static_cast<std::size_t>(s)] = agents[static_cast<std::size_t>(s)].get();
  }
  // Events are always recorded: the statistics are counted from them.
  game::GameResult r = play_observed(rules, game::game_key(o.master, seed), seats);
  GameOut out;
  out.stats = game_stats(r.events, r.final_scores, rules.uma_eval);
  out.kyoku = r.kyoku;
  out.decisions = r.decisions;
  if (o.logs) {
    data::GameLog log;
    for (int s = 0; s < game::kNumSeats; ++s)
      log.names[static_cast<std::size_t>(s)] = s == challenger_seat ? o.challenger : o.champion;
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

}  // namespace

game::GameResult play_observed(const game::TableRules& rules, const game::GameKey& key,
                               const std::array<game::Agent*, game::kNumSeats>& agents) {
  std::array<ObservingAgent*, game::kNumSeats> observers{};
  bool any = false;
  for (std::size_t s = 0; s < game::kNumSeats; ++s) {
    observers[s] = dynamic_cast<ObservingAgent*>(agents[s]);
    any = any || observers[s] != nullptr;
  }
  if (!any) return game::play_game(rules, key, agents, true);

  for (int s = 0; s < game::kNumSeats; ++s) {
    HYDRA_CHECK(agents[static_cast<std::size_t>(s)] != nullptr, "play_observed needs four agents");
    agents[static_cast<std::size_t>(s)]->start_game(game::Seat(s), key);
  }
  game::Table table(rules, key, true);
  // The recorded events are the feed: each observer reads the ones it has not seen before acting.
  // A seat's view ignores the others' hidden tiles in these full events, so feeding them is safe.
  std::array<std::size_t, game::kNumSeats> seen{};
  const auto catch_up = [&](std::size_t s) {
    const std::vector<game::Event>& events = table.events();
    for (; seen[s] < events.size(); ++seen[s]) observers[s]->observe(events[seen[s]]);
  };
  while (!table.done()) {
    const auto pending = table.pending();  // a copy: answering the last one replaces the list
    for (const game::Decision& d : pending) {
      const auto s = static_cast<std::size_t>(d.seat.index());
      if (observers[s]) catch_up(s);
      table.act(d.seat, agents[s]->act(table.view(d.seat), d));
    }
  }
  for (std::size_t s = 0; s < game::kNumSeats; ++s)
    if (observers[s]) catch_up(s);
  game::GameResult out;
  out.final_scores = table.final_scores();
  out.ranks = game::ranks(out.final_scores);
  out.decisions = table.decisions();
  out.kyoku = table.kyoku_played();
  out.events = table.take_events();
  return out;
}

SeedGames play_seed(const EvalOptions& o, std::uint64_t seed_index) {
  const game::TableRules& rules = game::table_rules(o.rules);
  SeedGames out;
  for (int c = 0; c < game::kNumSeats; ++c) out.games[static_cast<std::size_t>(c)] = play_one(o, rules, seed_index, c).stats;
  return out;
}

EvalResult run_eval(const EvalOptions& o) {
  if (o.seeds < 1) throw Error("--seeds must be at least 1");
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
  std::mutex progress_mutex;
  std::uint64_t finished = 0;
  const std::uint64_t planned = o.seeds * game::kNumSeats;

  for (std::uint64_t first = 0; first < o.seeds; first += batch) {
    const std::uint64_t count = std::min(batch, o.seeds - first);
    std::vector<GameOut> games(static_cast<std::size_t>(count * game::kNumSeats));
    // An exception in a worker is not lost: parallel_for rethrows it on this thread.
    hydra::parallel_for(0, games.size(), [&](std::size_t g) {
      games[g] = play_one(o, rules, first + g / game::kNumSeats, static_cast<int>(g % game::kNumSeats));
      if (o.progress) {
        const std::scoped_lock lock(progress_mutex);
        o.progress(++finished, planned);
      }
    });
    for (std::uint64_t i = 0; i < count; ++i) {
      SeedGames sg;
      for (std::size_t c = 0; c < game::kNumSeats; ++c) {
        const GameOut& g = games[static_cast<std::size_t>(i) * game::kNumSeats + c];
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
