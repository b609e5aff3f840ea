// Self-play actors on the lock-step play engine (actors.hpp; docs/SELFPLAY.md).
//
// Each game is an engine game: bots and forced moves are answered inside it, network decisions
// go to the engine's per-policy batches. Encoding writes the seat's observation (under the seat's
// suit permutation, rounded to binary16) straight into its row and, for learner seats, into the
// seat's trajectory; choosing samples the action from the seat's own KDF stream. What the run's
// advantage estimator needs beyond the trajectory (privileged planes, play-outs) its
// DecisionCollector gathers at the same points (collector.hpp). The engine runs the slots in one
// or two groups, so one group's batch is evaluated while the other group steps. Everything a game
// does depends only on its key and the policies' outputs, so thread count and timing never change
// a result.

#include "hydra/selfplay/actors.hpp"

#include "actor_game.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <utility>
#include <vector>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/common/log.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/game/kyoku.hpp"
#include "hydra/game/rng.hpp"
#include "hydra/game/table.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/external_agent.hpp"

namespace hydra::selfplay {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kSeats = game::kNumSeats;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

}  // namespace

struct Actors::Impl final : EngineDriver {
  Impl(Actors& owner, const ActorsConfig& cfg, game::MasterSeed master, std::shared_ptr<BatchPolicy> learner,
       std::shared_ptr<BatchPolicy> baseline);

  Rollout collect(std::int64_t min_samples);
  std::unique_ptr<EngineGame> next() override;
  void finished(std::unique_ptr<EngineGame> game) override;
  void stepped() override;             // the progress report
  void seat_agents(ActorGame& g);      // the opponent mix, the seats' agents and streams
  void settle(ActorGame& g);           // rewards, advantages, statistics, the log
  BatchPolicy* play_out_policy() const;  // who plays the play-outs: null for bot:greedy
  BatchPolicy* play_out_others_policy() const;  // the other seats' network, if another one plays them
  BatchPolicy* given_player(const std::shared_ptr<BatchPolicy>& given, const char* key, const std::string& player,
                            const char* setter) const;
  void count_learner_seat(const ActorGame& g, std::size_t s, const GameStats& seat_games,
                          const std::array<int, kSeats>& rank);
  void write_log(ActorGame& g);

  Actors& owner;
  ActorsConfig cfg;
  game::TableRules rules;
  game::MasterSeed master;
  std::shared_ptr<BatchPolicy> learner, baseline;
  std::shared_ptr<BatchPolicy> play_out;  // selfplay.play_out_agent = start or a checkpoint
  std::shared_ptr<BatchPolicy> play_out_others;  // selfplay.play_out_others = start or a checkpoint
  std::vector<std::shared_ptr<BatchPolicy>> pool;
  std::shared_ptr<KyokuRewardModel> reward_model;
  ScoreRewardModel score_rewards;
  std::string baseline_name;  // the bot name when the baseline is a bot or an external agent
  std::unique_ptr<ExternalAgents> external;  // when it is an external agent (external_agent.hpp)
  std::filesystem::path log_dir;
  std::int64_t next_game = 0;
  ActorStats stats;
  std::unique_ptr<Engine> engine;

  // Per collect.
  std::vector<std::pair<std::int64_t, Rollout>> finished_games;
  // Ended games whose play-outs (engine games of their own) are still running, in the order
  // they ended; each settles once its last play-out has.
  std::vector<std::unique_ptr<ActorGame>> parked;
  std::atomic<std::int64_t> recorded{0};
  std::int64_t min_samples = 0;
  Clock::time_point collect_start{}, next_progress{};
};

Actors::Impl::Impl(Actors& o, const ActorsConfig& c, game::MasterSeed m, std::shared_ptr<BatchPolicy> l,
                   std::shared_ptr<BatchPolicy> b)
    : owner(o), cfg(c), rules(game::table_rules(c.rules.preset)), master(m), learner(std::move(l)), baseline(std::move(b)) {
  const auto& sp = cfg.selfplay;
  if (!learner) throw Error("selfplay: no learner policy");
  // rules.length is one of its names and the opponent shares sum to 1 (config::validate).
  const auto length = game::parse_game_length(c.rules.length);
  HYDRA_CHECK(length.has_value(), "selfplay: rules.length was not validated");
  rules.length = *length;
  if (is_bot_name(sp.baseline)) {
    (void)make_bot(sp.baseline);  // the name is checked before any game runs
    baseline_name = sp.baseline;
  } else if (is_external_name(sp.baseline)) {
    external = std::make_unique<ExternalAgents>(ExternalOptions{}, rules);
    (void)external->make(sp.baseline);  // the command is checked before any game runs
    baseline_name = sp.baseline;
  } else if (!baseline && sp.opp_baseline > 0) {
    throw Error("config: selfplay.baseline '" + sp.baseline + "' is a checkpoint, but no baseline policy was given");
  }
  const auto total = static_cast<std::size_t>(std::max(2, sp.games));
  EngineOptions eo;
  // Two groups only where the learner's passes run on a device (a CUDA snapshot overlaps): while
  // the device evaluates one half, the host steps the other. On the CPU the two halves would share
  // the same cores with half the batch each: one group of every game evaluates twice as many rows
  // a pass and, on two cores, collects twice as fast (docs/SELFPLAY.md "One group on the CPU").
  if (learner->overlaps())
    eo.groups = {total / 2, total - total / 2};
  else
    eo.groups = {total};
  eo.max_batch = sp.max_batch;
  eo.overlap = sp.overlap;
  engine = std::make_unique<Engine>(eo);
}

// A new game while fewer than min_samples learner decisions are recorded in this collect.
std::unique_ptr<EngineGame> Actors::Impl::next() {
  if (recorded.load(std::memory_order_relaxed) >= min_samples) return nullptr;
  auto g = std::make_unique<ActorGame>(cfg.selfplay.temperature, recorded);
  g->index = next_game++;
  g->key = game::game_key(master, static_cast<std::uint64_t>(g->index));
  seat_agents(*g);
  g->set_collector(make_collector(cfg.estimator, cfg.selfplay, g->key, play_out_policy(),
                                  config::play_out_player(cfg.selfplay.play_out_agent) == config::PlayOutPlayer::snapshot,
                                  play_out_others_policy()));
  ActorGame* raw = g.get();
  g->table_ = std::make_unique<game::Table>(rules, g->key, !log_dir.empty(),
                                            [raw](const game::Table& t, const game::Event& e) { raw->on_event(t, e); });
  return g;
}

// Opponent mix: one draw decides the kind, a second the learner seat, a third the snapshot.
void Actors::Impl::seat_agents(ActorGame& g) {
  const auto& sp = cfg.selfplay;
  game::Xoshiro256ss mix(game::stream_key(master, game::labels::opponent_pool, {static_cast<std::uint64_t>(g.index)}));
  const double w_self = sp.opp_self, w_pool = pool.empty() ? 0.0 : sp.opp_pool,
               w_base = sp.opp_baseline;
  const double u = mix.uniform01() * (w_self + w_pool + w_base);
  g.kind = u < w_self ? OpponentKind::self : u < w_self + w_pool ? OpponentKind::pool : OpponentKind::baseline;
  if (w_self + w_pool + w_base <= 0) g.kind = OpponentKind::self;  // only pool games and no pool yet
  const auto learner_seat = static_cast<std::size_t>(mix.below(4));
  const auto pool_pick = pool.empty() ? 0U : mix.below(static_cast<std::uint32_t>(pool.size()));

  const auto version_name = [](const char* prefix, const BatchPolicy& p) {
    return std::string(prefix) + "@v" + std::to_string(p.version());
  };
  for (std::size_t s = 0; s < kSeats; ++s) {
    SeatAgent& a = g.seats[s];
    if (g.kind == OpponentKind::self || s == learner_seat) {
      a.policy = learner.get();
      a.learner = true;
      a.name = version_name("hydra", *learner);
    } else if (g.kind == OpponentKind::pool) {
      a.policy = pool[pool_pick].get();
      a.name = version_name("pool", *pool[pool_pick]);
    } else if (!baseline_name.empty()) {
      a.bot = external ? external->make(baseline_name) : make_bot(baseline_name);
      a.observer = dynamic_cast<ObservingAgent*>(a.bot.get());
      a.bot->start_game(game::Seat(static_cast<int>(s)), g.key);
      a.name = baseline_name;
    } else {
      a.policy = baseline.get();
      a.name = version_name("baseline", *baseline);
    }
    g.rng[s] = game::Xoshiro256ss(game::derive(g.key, game::labels::exploration, {s}));
    if (sp.augment) {
      game::Xoshiro256ss aug(game::derive(g.key, game::labels::augmentation, {s}));
      g.perm[s] = encoder::SuitPerm::nth(static_cast<int>(aug.below(encoder::kNumSuitPerms)));
    }
  }
}

// The network given for a play-out player that loads one (config::loads_checkpoint), null for
// bot:greedy and agent; the snapshot is the learner's.
BatchPolicy* Actors::Impl::given_player(const std::shared_ptr<BatchPolicy>& given, const char* key,
                                        const std::string& player, const char* setter) const {
  const config::PlayOutPlayer who = config::play_out_player(player);
  if (who == config::PlayOutPlayer::snapshot) return learner.get();
  if (!config::loads_checkpoint(who)) return nullptr;
  if (!given)
    throw Error(std::string(key) + " '" + player + "' is a network, but none was given (Actors::" + setter + ")");
  return given.get();
}

BatchPolicy* Actors::Impl::play_out_policy() const {
  return given_player(play_out, "selfplay.play_out_agent", cfg.selfplay.play_out_agent, "set_play_out_policy");
}

BatchPolicy* Actors::Impl::play_out_others_policy() const {
  return given_player(play_out_others, "selfplay.play_out_others", cfg.selfplay.play_out_others,
                      "set_play_out_others_policy");
}

// A game settles when it and every play-out it spawned have ended; the play-outs (engine games
// of their own) end through here too.
void Actors::Impl::finished(std::unique_ptr<EngineGame> game) {
  if (auto* g = dynamic_cast<ActorGame*>(game.get())) {
    if (!g->collector->waiting()) {
      settle(*g);
      return;
    }
    parked.emplace_back(static_cast<ActorGame*>(game.release()));
    return;
  }
  std::erase_if(parked, [this](const std::unique_ptr<ActorGame>& p) {
    if (p->collector->waiting()) return false;
    settle(*p);
    return true;
  });
}

// Rewards and done flags, the estimator's advantages, statistics, the game log; the game's
// rollout joins finished_games.
void Actors::Impl::settle(ActorGame& g) {
  // A game an external baseline failed in is void: its decisions are not learned from, its
  // result not counted (the fault is logged; the next game starts a new process).
  for (std::size_t s = 0; s < kSeats; ++s)
    if (const AgentFault* f = g.seats[s].observer ? g.seats[s].observer->fault() : nullptr) {
      log::warn("selfplay: game {} is void: {}", g.index, describe(*f));
      ++stats.void_games;
      return;
    }
  const game::Scores& fin = g.table_->final_scores();
  const std::size_t nk = g.kyoku.size();
  const std::array<int, kSeats> rank = game::ranks(fin);  // ties to the seat nearer the first dealer

  KyokuRewardModel& model = reward_model ? *reward_model : score_rewards;
  const std::vector<std::array<double, 4>> rewards = model.rewards(g.kyoku, fin);
  HYDRA_CHECK(rewards.size() == nk, "selfplay: the reward model gave one reward per kyoku");

  const GameStats seat_games = g.tally.finish(fin, rules.uma_eval);
  Rollout out;
  ++stats.kinds[ix(g.kind)].games;
  for (std::size_t s = 0; s < kSeats; ++s) {
    if (!g.seats[s].learner) continue;
    stats.unearned_kyoku += assign_episode_rewards(g.traj[s], g.traj_kyoku[s], rewards, s);
    g.collector->settle(SeatTrajectory{s, g.traj[s], g.traj_kyoku[s], g.kyoku}, model);
    for (const std::uint8_t p : g.traj[s].paired) stats.paired += p;
    out.append(g.traj[s]);
    count_learner_seat(g, s, seat_games, rank);
  }
  out.games = 1;
  out.kyoku = static_cast<std::int64_t>(nk);
  out.all_decisions = g.decisions;

  stats.branches += g.collector->extra_pairs;
  stats.branch_decisions += g.collector->extra_decisions;
  stats.games += 1;
  stats.kyoku += static_cast<std::int64_t>(nk);
  stats.decisions += g.decisions;
  stats.network_decisions += g.network;
  stats.learner_decisions += static_cast<std::int64_t>(out.size());
  stats.forced += g.forced;
  stats.engine_seconds += g.play_seconds;
  stats.encode_seconds += g.encode_seconds;
  if (!log_dir.empty()) write_log(g);
  finished_games.emplace_back(g.index, std::move(out));
}

void Actors::Impl::stepped() {
  if (!owner.progress) return;
  const auto now = Clock::now();
  if (now < next_progress) return;
  next_progress = now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(owner.progress_seconds));
  owner.progress(Progress{static_cast<std::int64_t>(finished_games.size()), recorded.load(std::memory_order_relaxed),
                          min_samples, since(collect_start)});
}

void Actors::Impl::count_learner_seat(const ActorGame& g, std::size_t s, const GameStats& seat_games,
                                      const std::array<int, kSeats>& rank) {
  KindStats& ks = stats.kinds[ix(g.kind)];
  ++ks.learner_seats;
  ++ks.ranks[ix(rank[s])];
  const SeatGame& sg = seat_games[s];
  ks.learner_kyoku += sg.kyoku;
  ks.wins += sg.wins;
  ks.deal_ins += sg.deal_ins;
  ks.riichi += sg.riichi;
  ks.calls += sg.call_kyoku;
}

void Actors::Impl::write_log(ActorGame& g) {
  data::GameLog log;
  for (std::size_t s = 0; s < kSeats; ++s) log.names[s] = g.seats[s].name;
  log.uri = "hydra-train:seed=" + std::to_string(master.value) + ":game=" + std::to_string(g.index) +
            ":opponents=" + opponent_kind_name(g.kind) + ":rules=" + rules.name;
  log.events = g.table_->take_events();
  char name[40];
  std::snprintf(name, sizeof name, "game_%08lld.json.gz", static_cast<long long>(g.index));
  data::write_mjai(log_dir / name, log);
}

Rollout Actors::Impl::collect(std::int64_t min) {
  const auto t0 = Clock::now();
  min_samples = min;
  recorded.store(0);
  collect_start = t0;
  next_progress = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(owner.progress_seconds));
  finished_games.clear();
  // Every slot starts a game (both groups, so they overlap from the first batch); later refills
  // stop once min_samples learner decisions are recorded.
  engine->run(*this);
  HYDRA_CHECK(parked.empty(), "selfplay: a game still waits for play-outs after the engine ran dry");
  const EngineStats es = engine->take_stats();
  stats.inference_seconds += es.inference_seconds;
  stats.forward_passes += es.forward_passes;
  stats.wait_seconds += es.wait_seconds;
  // Every game has finished.
  std::sort(finished_games.begin(), finished_games.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Rollout out;
  std::size_t n = 0;
  for (const auto& f : finished_games) n += f.second.size();
  out.reserve(n);
  for (const auto& f : finished_games) out.append(f.second);
  finished_games.clear();
  stats.wall_seconds += since(t0);
  return out;
}

// ---- Actors -----------------------------------------------------------------------------

ActorsConfig actors_config(const config::Config& cfg) {
  return ActorsConfig{cfg.rules, cfg.selfplay, config::estimator(cfg.ppo)};
}

Actors::Actors(const ActorsConfig& cfg, game::MasterSeed master, std::shared_ptr<BatchPolicy> learner,
               std::shared_ptr<BatchPolicy> baseline)
    : impl_(std::make_unique<Impl>(*this, cfg, master, std::move(learner), std::move(baseline))) {}

Actors::~Actors() = default;

void Actors::set_learner(std::shared_ptr<BatchPolicy> p) {
  if (!p) throw Error("selfplay: set_learner needs a policy");
  impl_->learner = std::move(p);
}

void Actors::set_pool(std::vector<std::shared_ptr<BatchPolicy>> pool) {
  for (const auto& p : pool)
    if (!p) throw Error("selfplay: set_pool needs a policy for every entry");
  impl_->pool = std::move(pool);
}

void Actors::set_play_out_policy(std::shared_ptr<BatchPolicy> p) { impl_->play_out = std::move(p); }
void Actors::set_play_out_others_policy(std::shared_ptr<BatchPolicy> p) { impl_->play_out_others = std::move(p); }

void Actors::set_reward_model(std::shared_ptr<KyokuRewardModel> m) { impl_->reward_model = std::move(m); }

void Actors::set_external_log_dir(const std::filesystem::path& dir) {
  if (impl_->external) impl_->external->set_log_dir(dir);
}

void Actors::set_log_dir(const std::filesystem::path& dir) {
  impl_->log_dir = dir;
  if (!dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw Error(dir.string() + ": cannot create the log folder: " + ec.message());
  }
}

Rollout Actors::collect(std::int64_t min_samples) { return impl_->collect(min_samples); }

ActorStats Actors::take_stats() { return std::exchange(impl_->stats, ActorStats{}); }

nlohmann::ordered_json Actors::state() const {
  nlohmann::ordered_json j;
  j["next_game"] = impl_->next_game;
  nlohmann::ordered_json versions = nlohmann::ordered_json::array();
  for (const auto& p : impl_->pool) versions.push_back(p->version());
  j["pool_versions"] = versions;
  return j;
}

void Actors::restore(const nlohmann::json& state) {
  if (!state.is_object() || !state.contains("next_game") || !state["next_game"].is_number_integer())
    throw Error("selfplay state: expected an object with an integer next_game");
  impl_->next_game = state["next_game"].get<std::int64_t>();
  if (state.contains("pool_versions") && state["pool_versions"].is_array()) {
    std::vector<std::int64_t> want = state["pool_versions"].get<std::vector<std::int64_t>>();
    std::vector<std::int64_t> have;
    for (const auto& p : impl_->pool) have.push_back(p->version());
    if (want != have)
      log::warn("selfplay: restored pool versions differ from the saved ones ({} saved, {} present)", want.size(),
                have.size());
  }
}

std::int64_t Actors::next_game() const { return impl_->next_game; }
std::size_t Actors::pool_size() const { return impl_->pool.size(); }

}  // namespace hydra::selfplay
