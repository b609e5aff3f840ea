#include "hydra/selfplay/arena.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>

#include "hydra/common/error.hpp"
#include "hydra/common/parallel.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/encoder/context.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/game/action.hpp"
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

using Agents = std::array<std::unique_ptr<game::Agent>, game::kNumSeats>;

Agents make_agents(const EvalOptions& o, int challenger_seat) {
  Agents agents;
  for (int s = 0; s < game::kNumSeats; ++s)
    agents[static_cast<std::size_t>(s)] = make(o, s == challenger_seat ? o.challenger : o.champion);
  return agents;
}

std::array<game::Agent*, game::kNumSeats> pointers(const Agents& agents) {
  std::array<game::Agent*, game::kNumSeats> seats{};
  for (std::size_t s = 0; s < game::kNumSeats; ++s) seats[s] = agents[s].get();
  return seats;
}

GameOut game_out(const EvalOptions& o, const game::TableRules& rules, std::uint64_t seed, int challenger_seat,
                 game::GameResult r) {
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

GameOut play_one(const EvalOptions& o, const game::TableRules& rules, std::uint64_t seed, int challenger_seat) {
  const Agents agents = make_agents(o, challenger_seat);
  // Events are always recorded: the statistics are counted from them.
  return game_out(o, rules, seed, challenger_seat, play_observed(rules, game::game_key(o.master, seed), pointers(agents)));
}

bool batched(const EvalOptions& o) {
  return dynamic_cast<BatchedAgent*>(make(o, o.challenger).get()) != nullptr ||
         dynamic_cast<BatchedAgent*>(make(o, o.champion).get()) != nullptr;
}

// One game of a lock-step pass.
struct LiveGame {
  std::size_t index = 0;  // in the list of games to play
  Agents agents;
  std::array<ObservingAgent*, game::kNumSeats> observers{};
  std::array<BatchedAgent*, game::kNumSeats> models{};
  std::unique_ptr<game::Table> table;
  std::array<std::size_t, game::kNumSeats> seen{};
  std::vector<game::Decision> waiting;  // model decisions of this pass
  std::vector<std::size_t> slots;       // their rows in their policy's batch

  void catch_up(std::size_t s) {
    const std::vector<game::Event>& events = table->events();
    for (; seen[s] < events.size(); ++seen[s]) observers[s]->observe(events[seen[s]]);
  }
  // Plays until the game ends or waits for model decisions (bots answered meanwhile).
  void advance() {
    waiting.clear();
    while (!table->done()) {
      const auto pending = table->pending();  // a copy: answering the last one replaces the list
      for (const game::Decision& d : pending) {
        const auto s = static_cast<std::size_t>(d.seat.index());
        if (observers[s]) catch_up(s);
        if (models[s]) waiting.push_back(d);
        else table->act(d.seat, agents[s]->act(table->view(d.seat), d));
      }
      if (!waiting.empty()) return;
    }
    for (std::size_t s = 0; s < game::kNumSeats; ++s)
      if (observers[s]) catch_up(s);
  }
};

struct PolicyBatchBuffers {
  std::vector<float> obs, context, probs, value;
  std::vector<std::uint64_t> legal;
  std::size_t rows = 0;
  void resize(std::size_t n) {
    rows = n;
    obs.resize(n * static_cast<std::size_t>(encoder::kObsSize));
    context.resize(n * static_cast<std::size_t>(encoder::kContextSize));
    probs.resize(n * static_cast<std::size_t>(game::kNumActions));
    value.resize(n);
    legal.resize(n);
  }
};

// Plays the games (seed, challenger seat) in lock step, kLockstepGames at a time; out[i] and the
// progress calls come in a fixed order whatever the thread count.
void play_lockstep(const EvalOptions& o, const game::TableRules& rules,
                   const std::vector<std::pair<std::uint64_t, int>>& games, std::vector<GameOut>& out,
                   const std::function<void()>& on_finished) {
  std::vector<std::unique_ptr<LiveGame>> live(std::min(kLockstepGames, games.size()));
  std::size_t next = 0;
  const auto start = [&](std::unique_ptr<LiveGame>& g) {
    g = std::make_unique<LiveGame>();
    g->index = next++;
    const auto [seed, seat] = games[g->index];
    g->agents = make_agents(o, seat);
    const game::GameKey key = game::game_key(o.master, seed);
    for (std::size_t s = 0; s < game::kNumSeats; ++s) {
      g->observers[s] = dynamic_cast<ObservingAgent*>(g->agents[s].get());
      g->models[s] = dynamic_cast<BatchedAgent*>(g->agents[s].get());
      g->agents[s]->start_game(game::Seat(static_cast<int>(s)), key);
    }
    g->table = std::make_unique<game::Table>(rules, key, true);
  };
  std::vector<std::size_t> fresh;
  for (std::size_t i = 0; i < live.size(); ++i) {
    start(live[i]);
    fresh.push_back(i);
  }
  std::vector<BatchPolicy*> policies;
  std::vector<PolicyBatchBuffers> buffers;
  for (;;) {
    // Step the new games to their first model decisions; finished games make room, serially.
    while (!fresh.empty()) {
      hydra::parallel_for(0, fresh.size(), [&](std::size_t k) { live[fresh[k]]->advance(); });
      std::vector<std::size_t> again;
      for (std::size_t i : fresh) {
        LiveGame& g = *live[i];
        if (!g.table->done()) continue;
        game::GameResult r;
        r.final_scores = g.table->final_scores();
        r.ranks = game::ranks(r.final_scores);
        r.decisions = g.table->decisions();
        r.kyoku = g.table->kyoku_played();
        r.events = g.table->take_events();
        const auto [seed, seat] = games[g.index];
        out[g.index] = game_out(o, rules, seed, seat, std::move(r));
        on_finished();
        live[i].reset();
        if (next < games.size()) {
          start(live[i]);
          again.push_back(i);
        }
      }
      fresh = std::move(again);
    }
    // Rows per policy, in game slot order then decision order.
    policies.clear();
    std::vector<std::size_t> rows;
    for (auto& g : live) {
      if (!g) continue;
      g->slots.clear();
      for (const game::Decision& d : g->waiting) {
        BatchPolicy* p = g->models[static_cast<std::size_t>(d.seat.index())]->policy();
        auto it = std::find(policies.begin(), policies.end(), p);
        if (it == policies.end()) {
          policies.push_back(p);
          rows.push_back(0);
          it = policies.end() - 1;
        }
        const auto k = static_cast<std::size_t>(it - policies.begin());
        g->slots.push_back(k << 32 | rows[k]++);
      }
    }
    if (policies.empty()) break;  // every game is done
    if (buffers.size() < policies.size()) buffers.resize(policies.size());
    for (std::size_t k = 0; k < policies.size(); ++k) buffers[k].resize(rows[k]);
    const auto row = [&](std::size_t slot, auto member, std::size_t width) {
      return (buffers[slot >> 32].*member).data() + (slot & 0xFFFFFFFFu) * width;
    };
    hydra::parallel_for(0, live.size(), [&](std::size_t i) {
      if (!live[i]) return;
      LiveGame& g = *live[i];
      for (std::size_t j = 0; j < g.waiting.size(); ++j) {
        const game::Decision& d = g.waiting[j];
        const std::size_t slot = g.slots[j];
        g.models[static_cast<std::size_t>(d.seat.index())]->prepare(
            g.table->view(d.seat), d, row(slot, &PolicyBatchBuffers::obs, encoder::kObsSize),
            row(slot, &PolicyBatchBuffers::context, static_cast<std::size_t>(encoder::kContextSize)), row(slot, &PolicyBatchBuffers::legal, 1));
      }
    });
    for (std::size_t k = 0; k < policies.size(); ++k) {
      PolicyBatchBuffers& b = buffers[k];
      policies[k]->evaluate({b.obs.data(), b.context.data(), b.legal.data(), static_cast<int>(b.rows)},
                            {b.probs.data(), b.value.data()});
    }
    fresh.clear();
    hydra::parallel_for(0, live.size(), [&](std::size_t i) {
      if (!live[i]) return;
      LiveGame& g = *live[i];
      for (std::size_t j = 0; j < g.waiting.size(); ++j) {
        const game::Decision& d = g.waiting[j];
        const game::Action a = g.models[static_cast<std::size_t>(d.seat.index())]->finish(
            d, row(g.slots[j], &PolicyBatchBuffers::probs, static_cast<std::size_t>(game::kNumActions)));
        g.table->act(d.seat, a);
      }
    });
    for (std::size_t i = 0; i < live.size(); ++i)
      if (live[i]) fresh.push_back(i);
  }
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
  const bool lockstep = batched(o);

  for (std::uint64_t first = 0; first < o.seeds; first += batch) {
    const std::uint64_t count = std::min(batch, o.seeds - first);
    std::vector<GameOut> games(static_cast<std::size_t>(count * game::kNumSeats));
    if (lockstep) {
      std::vector<std::pair<std::uint64_t, int>> list;
      for (std::size_t g = 0; g < games.size(); ++g)
        list.emplace_back(first + g / game::kNumSeats, static_cast<int>(g % game::kNumSeats));
      play_lockstep(o, rules, list, games, [&] {
        if (o.progress) o.progress(++finished, planned);
      });
    } else {
      // An exception in a worker is not lost: parallel_for rethrows it on this thread.
      hydra::parallel_for(0, games.size(), [&](std::size_t g) {
        games[g] = play_one(o, rules, first + g / game::kNumSeats, static_cast<int>(g % game::kNumSeats));
        if (o.progress) {
          const std::scoped_lock lock(progress_mutex);
          o.progress(++finished, planned);
        }
      });
    }
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
