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
#include "hydra/selfplay/engine.hpp"

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
    agents[static_cast<std::size_t>(s)] = make(o, s == challenger_seat ? o.challenger : o.champion);
  return agents;
}

std::array<game::Agent*, game::kNumSeats> pointers(const Agents& agents) {
  std::array<game::Agent*, game::kNumSeats> seats{};
  for (std::size_t s = 0; s < game::kNumSeats; ++s) seats[s] = agents[s].get();
  return seats;
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
  game::GameResult r = play_observed(rules, game::game_key(o.master, seed), pointers(agents));
  return game_out(o, rules, seed, challenger_seat, std::move(r), faults_of(pointers(agents)));
}

bool batched(const EvalOptions& o) {
  return dynamic_cast<BatchedAgent*>(make(o, o.challenger).get()) != nullptr ||
         dynamic_cast<BatchedAgent*>(make(o, o.champion).get()) != nullptr;
}

// Plays the games (seed, challenger seat) on the lock-step engine; out[i] and the progress calls
// come in a fixed order whatever the thread count.
void play_lockstep(const EvalOptions& o, const game::TableRules& rules,
                   const std::vector<std::pair<std::uint64_t, int>>& games, std::vector<GameOut>& out,
                   const std::function<void()>& on_finished) {
  play_agents_lockstep(
      rules, games.size(),
      [&](std::size_t i) {
        const auto [seed, seat] = games[i];
        return AgentGameStart{make_agents(o, seat), game::game_key(o.master, seed)};
      },
      [&](std::size_t i, game::GameResult r, std::vector<AgentFault> faults) {
        const auto [seed, seat] = games[i];
        out[i] = game_out(o, rules, seed, seat, std::move(r), std::move(faults));
        on_finished();
      });
}

}  // namespace

namespace {

// A game of four agents on the engine: batched agents' decisions go to their policy's rows,
// every other agent answers inline. Observing agents read the recorded events before they act.
class AgentGame final : public EngineGame {
 public:
  AgentGame(const game::TableRules& rules, std::size_t index, AgentGameStart start)
      : index_(index), agents_(std::move(start.agents)) {
    for (std::size_t s = 0; s < game::kNumSeats; ++s) {
      HYDRA_CHECK(agents_[s] != nullptr, "a lock-step game needs four agents");
      observers_[s] = dynamic_cast<ObservingAgent*>(agents_[s].get());
      models_[s] = dynamic_cast<BatchedAgent*>(agents_[s].get());
      agents_[s]->start_game(game::Seat(static_cast<int>(s)), start.key);
    }
    table_ = std::make_unique<game::Table>(rules, start.key, true);
  }

  game::Table& table() override { return *table_; }
  BatchPolicy* policy(const game::Decision& d) override {
    const auto s = static_cast<std::size_t>(d.seat.index());
    if (observers_[s]) catch_up(s);
    return models_[s] ? models_[s]->policy() : nullptr;
  }
  game::Action act(const game::Decision& d) override {
    return agents_[static_cast<std::size_t>(d.seat.index())]->act(table_->view(d.seat), d);
  }
  void encode(const game::Decision& d, const Row& row) override {
    models_[static_cast<std::size_t>(d.seat.index())]->prepare(table_->view(d.seat), d, row.obs, row.context, row.legal);
  }
  game::Action choose(const game::Decision& d, const RowResult& r) override {
    return models_[static_cast<std::size_t>(d.seat.index())]->finish(d, r.probs);
  }

  std::size_t index() const { return index_; }
  std::vector<AgentFault> faults() const {
    std::array<game::Agent*, game::kNumSeats> seats{};
    for (std::size_t s = 0; s < game::kNumSeats; ++s) seats[s] = agents_[s].get();
    return faults_of(seats);
  }
  game::GameResult result() {
    for (std::size_t s = 0; s < game::kNumSeats; ++s)
      if (observers_[s]) catch_up(s);
    game::GameResult r;
    r.final_scores = table_->final_scores();
    r.ranks = game::ranks(r.final_scores);
    r.decisions = table_->decisions();
    r.kyoku = table_->kyoku_played();
    r.events = table_->take_events();
    return r;
  }

 private:
  void catch_up(std::size_t s) {
    const std::vector<game::Event>& events = table_->events();
    for (; seen_[s] < events.size(); ++seen_[s]) observers_[s]->observe(events[seen_[s]]);
  }

  std::size_t index_;
  std::array<std::unique_ptr<game::Agent>, game::kNumSeats> agents_;
  std::array<ObservingAgent*, game::kNumSeats> observers_{};
  std::array<BatchedAgent*, game::kNumSeats> models_{};
  std::unique_ptr<game::Table> table_;
  std::array<std::size_t, game::kNumSeats> seen_{};
};

class AgentGameDriver final : public EngineDriver {
 public:
  AgentGameDriver(const game::TableRules& rules, std::size_t games,
                  const std::function<AgentGameStart(std::size_t)>& start,
                  const std::function<void(std::size_t, game::GameResult, std::vector<AgentFault>)>& done)
      : rules_(rules), games_(games), start_(start), done_(done) {}
  std::unique_ptr<EngineGame> next() override {
    if (next_ >= games_) return nullptr;
    const std::size_t i = next_++;
    return std::make_unique<AgentGame>(rules_, i, start_(i));
  }
  void finished(std::unique_ptr<EngineGame> game) override {
    auto& g = static_cast<AgentGame&>(*game);
    game::GameResult r = g.result();  // observers catch up first: a fault can come at the end
    done_(g.index(), std::move(r), g.faults());
  }

 private:
  const game::TableRules& rules_;
  std::size_t games_, next_ = 0;
  const std::function<AgentGameStart(std::size_t)>& start_;
  const std::function<void(std::size_t, game::GameResult, std::vector<AgentFault>)>& done_;
};

}  // namespace

void play_agents_lockstep(const game::TableRules& rules, std::size_t games,
                          const std::function<AgentGameStart(std::size_t)>& start,
                          const std::function<void(std::size_t, game::GameResult, std::vector<AgentFault>)>& done) {
  if (games == 0) return;
  AgentGameDriver driver(rules, games, start, done);
  EngineOptions eo;
  eo.groups = {std::min(kLockstepGames, games)};
  Engine engine(eo);
  engine.run(driver);
}

std::string describe(const AgentFault& f) {
  return f.agent + " at seat " + std::to_string(f.seat) + ": " + f.reason + (f.event.empty() ? "" : "; event: " + f.event) +
         (f.reply.empty() ? "" : "; reply: " + f.reply);
}

std::vector<AgentFault> faults_of(const std::array<game::Agent*, game::kNumSeats>& agents) {
  std::vector<AgentFault> out;
  for (game::Agent* a : agents)
    if (const auto* o = dynamic_cast<const ObservingAgent*>(a); o && o->fault()) out.push_back(*o->fault());
  return out;
}

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
  out.seed = seed_index;
  for (int c = 0; c < game::kNumSeats; ++c) {
    const GameOut g = play_one(o, rules, seed_index, c);
    if (!g.faults.empty()) throw Error("seed " + std::to_string(seed_index) + ": " + g.faults.front().reason);
    out.games[static_cast<std::size_t>(c)] = g.stats;
  }
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
      // A seed with a void game cannot be paired: none of its four games is scored, and every
      // fault is reported.
      bool whole = true;
      for (std::size_t c = 0; c < game::kNumSeats; ++c)
        for (const AgentFault& f : games[static_cast<std::size_t>(i) * game::kNumSeats + c].faults) {
          res.voided.push_back(VoidedGame{first + i, static_cast<int>(c), f});
          whole = false;
        }
      if (!whole) {
        ++res.seeds_voided;
        continue;
      }
      SeedGames sg;
      sg.seed = first + i;
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
