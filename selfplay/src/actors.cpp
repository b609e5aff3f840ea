// Lock-step batched self-play (actors.hpp; docs/SELFPLAY.md).
//
// One collect():
//   step(A); submit(A); step(B); submit(B);
//   repeat { wait(A); step(A); submit(A); wait(B); step(B); submit(B); } until both are idle
// where step(g) = apply the group's evaluated batch (sample, act), advance every game to its
// next network decisions (bots and forced moves answered inline), finish and start games
// (serially, in slot order), then encode the waiting decisions into the group's batch. The
// batch is evaluated on the inference thread (one evaluate() per model) while the main thread
// steps the other group. Everything a game does depends only on its key and the policies'
// outputs, so thread count and timing never change a result.

#include "hydra/selfplay/actors.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

#include "hydra/common/error.hpp"
#include "hydra/common/log.hpp"
#include "hydra/common/parallel.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/encoder/augment.hpp"
#include "hydra/encoder/context.hpp"
#include "hydra/encoder/encoder.hpp"
#include "hydra/game/agent.hpp"
#include "hydra/game/kyoku.hpp"
#include "hydra/game/rng.hpp"
#include "hydra/game/table.hpp"
#include "hydra/selfplay/bots.hpp"

namespace hydra::selfplay {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kSeats = game::kNumSeats;
constexpr std::size_t kObs = encoder::kObsSize;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::size_t at(game::Seat s) { return static_cast<std::size_t>(s.index()); }

// A tile-type mask under a suit permutation (honours fixed).
std::uint64_t permute_tiles(const encoder::SuitPerm& p, std::uint64_t bits) {
  if (p.identity()) return bits;
  std::uint64_t out = 0;
  for (int t = 0; t < encoder::kTiles; ++t)
    if ((bits >> t) & 1U) out |= std::uint64_t{1} << p(game::TileType(t)).index();
  return out;
}

// Per (seat, kyoku) facts for the learner-seat rates.
enum KyokuFlag : std::uint8_t { kWin = 1, kDealIn = 2, kRiichi = 4, kCall = 8 };

// The agent of one seat of one game.
struct SeatAgent {
  int policy = -1;                  // index into the collect's policy list; -1 = a bot
  std::unique_ptr<game::Agent> bot;  // when policy == -1
  bool learner = false;              // the current snapshot: its decisions are stored
  std::string name;                  // in the game log
};

// A network decision waiting for its batch slot's result.
struct Waiting {
  game::Seat seat;
  game::ActionMask mask;  // original (unpermuted) space
  int slot = 0;
  std::int64_t stored = -1;  // index in the seat's trajectory when a learner seat
};

struct Game {
  std::int64_t index = 0;
  game::GameKey key;
  OpponentKind kind = OpponentKind::self;
  std::unique_ptr<game::Table> table;
  std::array<encoder::Encoder, kSeats> enc{encoder::Encoder(game::Seat(0)), encoder::Encoder(game::Seat(1)),
                                           encoder::Encoder(game::Seat(2)), encoder::Encoder(game::Seat(3))};
  std::array<encoder::SuitPerm, kSeats> perm{};
  std::array<game::Xoshiro256ss, kSeats> rng{game::Xoshiro256ss(game::Digest{}), game::Xoshiro256ss(game::Digest{}),
                                             game::Xoshiro256ss(game::Digest{}), game::Xoshiro256ss(game::Digest{})};
  std::array<SeatAgent, kSeats> seats;
  std::vector<Waiting> waiting;
  std::vector<int> per_policy;  // waiting decisions per policy of the collect

  // Trajectories of the learner seats, and the kyoku index of each stored decision.
  std::array<Rollout, kSeats> traj;
  std::array<std::vector<int>, kSeats> traj_kyoku;
  std::vector<game::KyokuStart> kyoku;                    // from the start_kyoku events
  std::array<std::vector<std::uint8_t>, kSeats> flags;  // per seat per kyoku

  std::int64_t decisions = 0, network = 0, forced = 0;
  double engine_s = 0, encode_s = 0;

  void on_event(const game::Table& t, const game::Event& e) {
    for (std::size_t s = 0; s < kSeats; ++s)
      if (seats[s].policy >= 0) enc[s].observe(t.view(game::Seat(static_cast<int>(s))), e);
    using game::EventType;
    switch (e.type) {
      case EventType::start_kyoku: {
        kyoku.push_back(game::kyoku_start(e));
        for (auto& f : flags) f.push_back(0);
        break;
      }
      case EventType::hora:
        flags[at(e.actor)].back() |= kWin;
        if (e.target != e.actor) flags[at(e.target)].back() |= kDealIn;
        break;
      case EventType::reach_accepted: flags[at(e.actor)].back() |= kRiichi; break;
      case EventType::chi:
      case EventType::pon:
      case EventType::daiminkan: flags[at(e.actor)].back() |= kCall; break;
      default: break;
    }
  }
};

// One group's preallocated batch.
struct Batch {
  std::vector<float> obs, context, probs, value;
  std::vector<std::uint64_t> legal;
  std::vector<int> begin, count;  // per policy: its contiguous slot range
  std::vector<std::int64_t> version;  // per policy, read just before its evaluate()
  int size = 0;
};

}  // namespace

const char* opponent_kind_name(OpponentKind k) {
  switch (k) {
    case OpponentKind::self: return "self";
    case OpponentKind::pool: return "pool";
    case OpponentKind::baseline: return "baseline";
  }
  return "?";
}

namespace {
double ratio(std::int64_t a, std::int64_t b) { return b > 0 ? static_cast<double>(a) / static_cast<double>(b) : 0.0; }
}  // namespace

double KindStats::win_rate() const { return ratio(wins, learner_kyoku); }
double KindStats::deal_in_rate() const { return ratio(deal_ins, learner_kyoku); }
double KindStats::riichi_rate() const { return ratio(riichi, learner_kyoku); }
double KindStats::call_rate() const { return ratio(calls, learner_kyoku); }
double KindStats::average_rank() const {
  std::int64_t n = 0, sum = 0;
  for (std::size_t r = 0; r < 4; ++r) {
    n += ranks[r];
    sum += ranks[r] * static_cast<std::int64_t>(r + 1);
  }
  return ratio(sum, n);
}

KindStats ActorStats::total() const {
  KindStats t;
  for (const KindStats& k : kinds) {
    t.games += k.games;
    t.learner_seats += k.learner_seats;
    t.learner_kyoku += k.learner_kyoku;
    t.wins += k.wins;
    t.deal_ins += k.deal_ins;
    t.riichi += k.riichi;
    t.calls += k.calls;
    for (std::size_t r = 0; r < 4; ++r) t.ranks[r] += k.ranks[r];
  }
  return t;
}

nlohmann::ordered_json ActorStats::to_json() const {
  const auto kind_json = [](const KindStats& k) {
    nlohmann::ordered_json j;
    j["games"] = k.games;
    j["learner_seats"] = k.learner_seats;
    j["win_rate"] = k.win_rate();
    j["deal_in_rate"] = k.deal_in_rate();
    j["riichi_rate"] = k.riichi_rate();
    j["call_rate"] = k.call_rate();
    j["average_rank"] = k.average_rank();
    j["ranks"] = k.ranks;
    return j;
  };
  nlohmann::ordered_json j;
  j["games"] = games;
  j["kyoku"] = kyoku;
  j["decisions"] = decisions;
  j["network_decisions"] = network_decisions;
  j["learner_decisions"] = learner_decisions;
  j["forced"] = forced;
  j["forward_passes"] = forward_passes;
  j["engine_seconds"] = engine_seconds;
  j["encode_seconds"] = encode_seconds;
  j["inference_seconds"] = inference_seconds;
  j["wait_seconds"] = wait_seconds;
  j["wall_seconds"] = wall_seconds;
  j["decisions_per_second"] = wall_seconds > 0 ? static_cast<double>(decisions) / wall_seconds : 0.0;
  j["all"] = kind_json(total());
  for (int k = 0; k < kOpponentKinds; ++k)
    j[opponent_kind_name(static_cast<OpponentKind>(k))] = kind_json(kinds[static_cast<std::size_t>(k)]);
  return j;
}

struct Actors::Impl {
  Impl(Actors& owner, const config::Config& cfg, game::MasterSeed master, std::shared_ptr<BatchPolicy> learner,
       std::shared_ptr<BatchPolicy> baseline);
  ~Impl();

  Rollout collect(std::int64_t min_samples);

  // Collect-time helpers.
  void start_game(std::unique_ptr<Game>& slot);
  void advance(Game& g);
  void apply_results(Game& g, const Batch& b);
  void finish_game(Game& g);
  void step(int group);
  void encode_group(int group);
  void evaluate(int group);

  // Inference thread.
  void submit(int group);
  void wait(int group);
  void inference_loop();

  Actors& owner;
  config::Config cfg;
  game::TableRules rules;
  game::MasterSeed master;
  std::shared_ptr<BatchPolicy> learner, baseline;
  std::vector<std::shared_ptr<BatchPolicy>> pool;
  std::shared_ptr<KyokuRewardModel> reward_model;
  std::string baseline_name;  // the bot name when the baseline is a bot
  std::filesystem::path log_dir;
  std::int64_t next_game = 0;
  ActorStats stats;

  // Per collect.
  std::vector<std::shared_ptr<BatchPolicy>> policies;  // 0 = learner, 1 = baseline (may be null), 2.. = pool
  std::array<std::vector<std::unique_ptr<Game>>, 2> groups;
  std::array<Batch, 2> batches;
  std::vector<std::pair<std::int64_t, Rollout>> finished;
  std::int64_t recorded = 0, min_samples = 0;

  std::thread worker;
  std::mutex mu;
  std::condition_variable cv;
  std::array<bool, 2> queued{}, busy{};
  bool quit = false;
  std::exception_ptr error;
};

Actors::Impl::Impl(Actors& o, const config::Config& c, game::MasterSeed m, std::shared_ptr<BatchPolicy> l,
                   std::shared_ptr<BatchPolicy> b)
    : owner(o), cfg(c), rules(game::table_rules(c.rules.preset)), master(m), learner(std::move(l)), baseline(std::move(b)) {
  const auto& sp = cfg.selfplay;
  if (!learner) throw Error("selfplay: no learner policy");
  const auto length = game::parse_game_length(c.rules.length);
  if (!length) throw Error("config: rules.length '" + c.rules.length + "': expected hanchan, tonpuusen or kyoku");
  rules.length = *length;
  if (sp.opp_self + sp.opp_pool + sp.opp_baseline <= 0)
    throw Error("config: selfplay.opp_self + opp_pool + opp_baseline must be positive");
  if (is_bot_name(sp.baseline)) {
    (void)make_bot(sp.baseline);  // the name is checked before any game runs
    baseline_name = sp.baseline;
  } else if (!baseline && sp.opp_baseline > 0) {
    throw Error("config: selfplay.baseline '" + sp.baseline + "' is a checkpoint, but no baseline policy was given");
  }
  const auto total = static_cast<std::size_t>(std::max(2, sp.games));
  groups[0].resize(total / 2);
  groups[1].resize(total - total / 2);
  for (std::size_t g = 0; g < 2; ++g) {
    const std::size_t cap = groups[g].size() * kSeats;
    Batch& bt = batches[g];
    bt.obs.resize(cap * kObs);
    bt.context.resize(cap * kContext);
    bt.probs.resize(cap * kActions);
    bt.value.resize(cap);
    bt.legal.resize(cap);
  }
  worker = std::thread([this] { inference_loop(); });
}

Actors::Impl::~Impl() {
  {
    std::lock_guard lock(mu);
    quit = true;
  }
  cv.notify_all();
  worker.join();
}

// ---- inference thread -------------------------------------------------------------------

void Actors::Impl::inference_loop() {
  std::unique_lock lock(mu);
  for (;;) {
    cv.wait(lock, [&] { return quit || queued[0] || queued[1]; });
    if (quit) return;
    const int g = queued[0] ? 0 : 1;
    queued[static_cast<std::size_t>(g)] = false;
    lock.unlock();
    try {
      evaluate(g);
    } catch (...) {
      lock.lock();
      error = std::current_exception();
      busy[static_cast<std::size_t>(g)] = false;
      cv.notify_all();
      continue;
    }
    lock.lock();
    busy[static_cast<std::size_t>(g)] = false;
    cv.notify_all();
  }
}

void Actors::Impl::submit(int group) {
  if (batches[static_cast<std::size_t>(group)].size == 0) return;
  {
    std::lock_guard lock(mu);
    queued[static_cast<std::size_t>(group)] = true;
    busy[static_cast<std::size_t>(group)] = true;
  }
  cv.notify_all();
}

void Actors::Impl::wait(int group) {
  // The time the CPU side sits idle because inference is behind: with wall_seconds, what
  // `hydra bench selfplay` splits the time by (engine, encoding, inference, waiting).
  const auto t0 = Clock::now();
  std::unique_lock lock(mu);
  cv.wait(lock, [&] { return !busy[static_cast<std::size_t>(group)]; });
  stats.wait_seconds += since(t0);
  if (error) {
    auto e = error;
    error = nullptr;
    std::rethrow_exception(e);
  }
}

// Runs on the inference thread: one evaluate() per model, chunked by selfplay.max_batch.
void Actors::Impl::evaluate(int group) {
  Batch& b = batches[static_cast<std::size_t>(group)];
  const auto t0 = Clock::now();
  std::int64_t passes = 0;
  for (std::size_t p = 0; p < policies.size(); ++p) {
    if (b.count[p] == 0) continue;
    BatchPolicy& pol = *policies[p];
    b.version[p] = pol.version();
    const int chunk = cfg.selfplay.max_batch > 0 ? cfg.selfplay.max_batch : b.count[p];
    for (int off = 0; off < b.count[p]; off += chunk) {
      const int i = b.begin[p] + off;
      const auto ui = static_cast<std::size_t>(i);
      PolicyBatch in{b.obs.data() + ui * kObs, b.context.data() + ui * kContext, b.legal.data() + ui,
                     std::min(chunk, b.count[p] - off)};
      pol.evaluate(in, PolicyOutput{b.probs.data() + ui * kActions, b.value.data() + ui});
      ++passes;
    }
  }
  // Read by the main thread only after wait(), which orders it after this write.
  stats.inference_seconds += since(t0);
  stats.forward_passes += passes;
}

// ---- games ------------------------------------------------------------------------------

void Actors::Impl::start_game(std::unique_ptr<Game>& slot) {
  auto g = std::make_unique<Game>();
  g->index = next_game++;
  g->key = game::game_key(master, static_cast<std::uint64_t>(g->index));
  const auto& sp = cfg.selfplay;

  // Opponent mix: one draw decides the kind, a second the learner seat, a third the snapshot.
  game::Xoshiro256ss mix(game::stream_key(master, game::labels::opponent_pool, {static_cast<std::uint64_t>(g->index)}));
  const double w_self = sp.opp_self, w_pool = pool.empty() ? 0.0 : sp.opp_pool,
               w_base = sp.opp_baseline;
  const double u = mix.uniform01() * (w_self + w_pool + w_base);
  g->kind = u < w_self ? OpponentKind::self : u < w_self + w_pool ? OpponentKind::pool : OpponentKind::baseline;
  if (w_self + w_pool + w_base <= 0) g->kind = OpponentKind::self;  // only pool games and no pool yet
  const auto learner_seat = static_cast<std::size_t>(mix.below(4));
  const auto pool_pick = pool.empty() ? 0U : mix.below(static_cast<std::uint32_t>(pool.size()));

  const auto version_name = [](const char* prefix, const BatchPolicy& p) {
    return std::string(prefix) + "@v" + std::to_string(p.version());
  };
  for (std::size_t s = 0; s < kSeats; ++s) {
    SeatAgent& a = g->seats[s];
    if (g->kind == OpponentKind::self || s == learner_seat) {
      a.policy = 0;
      a.learner = true;
      a.name = version_name("hydra", *learner);
    } else if (g->kind == OpponentKind::pool) {
      a.policy = 2 + static_cast<int>(pool_pick);
      a.name = version_name("pool", *pool[pool_pick]);
    } else if (!baseline_name.empty()) {
      a.bot = make_bot(baseline_name);
      a.bot->start_game(game::Seat(static_cast<int>(s)), g->key);
      a.name = baseline_name;
    } else {
      a.policy = 1;
      a.name = version_name("baseline", *baseline);
    }
    g->rng[s] = game::Xoshiro256ss(game::derive(g->key, game::labels::exploration, {s}));
    if (sp.augment) {
      game::Xoshiro256ss aug(game::derive(g->key, game::labels::augmentation, {s}));
      g->perm[s] = encoder::SuitPerm::nth(static_cast<int>(aug.below(encoder::kNumSuitPerms)));
    }
  }
  Game* raw = g.get();
  g->table = std::make_unique<game::Table>(rules, g->key, !log_dir.empty(),
                                           [raw](const game::Table& t, const game::Event& e) { raw->on_event(t, e); });
  slot = std::move(g);
}

// Answers bots and forced moves until the game waits on the network or ends.
void Actors::Impl::advance(Game& g) {
  g.waiting.clear();
  g.per_policy.assign(policies.size(), 0);
  game::Table& t = *g.table;
  while (!t.done()) {
    const auto pending = t.pending();  // a copy: answering the last one replaces the list
    for (const game::Decision& d : pending) {
      SeatAgent& a = g.seats[at(d.seat)];
      if (d.mask.count() == 1) {
        ++g.forced;
        ++g.decisions;
        t.act(d.seat, d.mask.nth(0));
      } else if (a.policy < 0) {
        ++g.decisions;
        t.act(d.seat, a.bot->act(t.view(d.seat), d));
      } else {
        g.waiting.push_back(Waiting{d.seat, d.mask, 0, -1});
        ++g.per_policy[static_cast<std::size_t>(a.policy)];
      }
    }
    if (!g.waiting.empty()) return;
  }
}

// Samples each waiting decision's action from the batch result and acts.
void Actors::Impl::apply_results(Game& g, const Batch& b) {
  for (const Waiting& w : g.waiting) {
    const std::size_t s = at(w.seat);
    // selfplay.temperature shapes the learner's own seats; snapshots opposing it play at T = 1.
    const double inv_t = g.seats[s].learner ? 1.0 / cfg.selfplay.temperature : 1.0;
    const auto slot = static_cast<std::size_t>(w.slot);
    const float* probs = b.probs.data() + slot * kActions;
    const std::uint64_t legal = b.legal[slot];
    // Sampling at temperature T: p^(1/T), renormalised; one uniform draw per decision.
    std::array<double, kActions> wts{};
    double total = 0;
    int last = -1;
    for (int a = 0; a < kActions; ++a) {
      if (!((legal >> a) & 1U) || !(probs[a] > 0.0f)) continue;
      const double p = inv_t == 1.0 ? static_cast<double>(probs[a]) : std::pow(static_cast<double>(probs[a]), inv_t);
      wts[static_cast<std::size_t>(a)] = p;
      total += p;
      last = a;
    }
    HYDRA_CHECK(last >= 0, "selfplay: the policy gave no legal action a positive probability");
    const double u = g.rng[s].uniform01() * total;
    double acc = 0;
    int chosen = last;
    for (int a = 0; a < kActions; ++a) {
      if (wts[static_cast<std::size_t>(a)] <= 0) continue;
      acc += wts[static_cast<std::size_t>(a)];
      if (u < acc) {
        chosen = a;
        break;
      }
    }
    if (w.stored >= 0) {
      const auto i = static_cast<std::size_t>(w.stored);
      Rollout& r = g.traj[s];
      r.action[i] = static_cast<std::int16_t>(chosen);
      r.logp[i] = std::log(probs[chosen]);
      r.value[i] = b.value[slot];
      r.version[i] = b.version[static_cast<std::size_t>(g.seats[s].policy)];
    }
    ++g.decisions;
    ++g.network;
    const game::Action original = g.perm[s].inverse()(game::Action(chosen));
    HYDRA_CHECK(w.mask.test(original), "selfplay: a sampled action is not legal");
    g.table->act(w.seat, original);
  }
  g.waiting.clear();
}

// Rewards and done flags, statistics, the game log; the game's rollout joins `finished`.
void Actors::Impl::finish_game(Game& g) {
  const game::Table& t = *g.table;
  const game::Scores& fin = t.final_scores();
  const std::size_t nk = g.kyoku.size();
  std::array<int, kSeats> final_scores{};
  for (std::size_t s = 0; s < kSeats; ++s) final_scores[s] = fin[s];
  // Ranks: ties go to the seat nearer the first dealer (Tenhou).
  std::array<int, kSeats> rank{};
  for (std::size_t s = 0; s < kSeats; ++s)
    for (std::size_t o = 0; o < kSeats; ++o)
      if (fin[o] > fin[s] || (fin[o] == fin[s] && o < s)) ++rank[s];

  std::vector<std::array<double, 4>> rewards;
  if (reward_model) {
    rewards = reward_model->rewards(g.kyoku, final_scores);
    HYDRA_CHECK(rewards.size() == nk, "selfplay: the reward model gave one reward per kyoku");
  } else {
    rewards.reserve(nk);
    for (std::size_t k = 0; k < nk; ++k) {
      std::array<double, 4> r{};
      for (std::size_t s = 0; s < kSeats; ++s) {
        const int end = k + 1 < nk ? g.kyoku[k + 1].scores[s] : final_scores[s];
        r[s] = (end - g.kyoku[k].scores[s]) / kRewardScale +
               (k + 1 == nk ? kPlacementReward[static_cast<std::size_t>(rank[s])] : 0.0);
      }
      rewards.push_back(r);
    }
  }

  Rollout out;
  KindStats& ks = stats.kinds[static_cast<std::size_t>(g.kind)];
  ++ks.games;
  for (std::size_t s = 0; s < kSeats; ++s) {
    if (!g.seats[s].learner) continue;
    Rollout& r = g.traj[s];
    const std::vector<int>& kk = g.traj_kyoku[s];
    const std::size_t n = r.size();
    r.reward.assign(n, 0.0f);
    r.done.assign(n, 0);
    // An episode ends at the seat's last decision of each kyoku. A kyoku in which the seat never
    // decided passes its reward on to the seat's next episode (the last one after the final
    // kyoku), so the rewards of a game still sum to its total.
    double carry = 0;
    std::size_t i = 0;
    std::int64_t last_end = -1;
    for (std::size_t k = 0; k < nk; ++k) {
      std::int64_t end = -1;
      while (i < n && kk[i] == static_cast<int>(k)) end = static_cast<std::int64_t>(i++);
      carry += rewards[k][s];
      if (end >= 0) {
        r.done[static_cast<std::size_t>(end)] = 1;
        r.reward[static_cast<std::size_t>(end)] = static_cast<float>(carry);
        carry = 0;
        last_end = end;
      }
    }
    HYDRA_CHECK(i == n, "selfplay: a stored decision outside the game's kyoku");
    if (carry != 0 && last_end >= 0)
      r.reward[static_cast<std::size_t>(last_end)] = static_cast<float>(r.reward[static_cast<std::size_t>(last_end)] + carry);
    out.append(r);

    ++ks.learner_seats;
    ++ks.ranks[static_cast<std::size_t>(rank[s])];
    for (std::uint8_t f : g.flags[s]) {
      ++ks.learner_kyoku;
      ks.wins += (f & kWin) != 0;
      ks.deal_ins += (f & kDealIn) != 0;
      ks.riichi += (f & kRiichi) != 0;
      ks.calls += (f & kCall) != 0;
    }
  }
  out.games = 1;
  out.kyoku = static_cast<std::int64_t>(nk);
  out.all_decisions = g.decisions;

  stats.games += 1;
  stats.kyoku += static_cast<std::int64_t>(nk);
  stats.decisions += g.decisions;
  stats.network_decisions += g.network;
  stats.learner_decisions += static_cast<std::int64_t>(out.size());
  stats.forced += g.forced;
  stats.engine_seconds += g.engine_s;
  stats.encode_seconds += g.encode_s;

  if (!log_dir.empty()) {
    data::GameLog log;
    for (std::size_t s = 0; s < kSeats; ++s) log.names[s] = g.seats[s].name;
    log.uri = "hydra-train:seed=" + std::to_string(master.value) + ":game=" + std::to_string(g.index) +
              ":opponents=" + opponent_kind_name(g.kind) + ":rules=" + rules.name;
    log.events = g.table->take_events();
    char name[40];
    std::snprintf(name, sizeof name, "game_%08lld.json.gz", static_cast<long long>(g.index));
    data::write_mjai(log_dir / name, log);
  }
  finished.emplace_back(g.index, std::move(out));
  if (owner.progress) owner.progress(static_cast<std::int64_t>(finished.size()));
}

// Encodes the group's waiting decisions into its batch: slots are policy-major, and within a
// policy ordered by game slot, then pending order (a prefix sum, so the layout never depends on
// thread timing).
void Actors::Impl::encode_group(int group) {
  auto& games = groups[static_cast<std::size_t>(group)];
  Batch& b = batches[static_cast<std::size_t>(group)];
  const std::size_t np = policies.size();
  std::vector<int> base(games.size() * np);
  int offset = 0;
  for (std::size_t p = 0; p < np; ++p) {
    b.begin[p] = offset;
    for (std::size_t gi = 0; gi < games.size(); ++gi) {
      base[gi * np + p] = offset;
      if (games[gi]) offset += games[gi]->per_policy[p];
    }
    b.count[p] = offset - b.begin[p];
  }
  b.size = offset;
  // Slots and trajectory indices are assigned serially (cheap), the encoding runs in parallel.
  for (std::size_t gi = 0; gi < games.size(); ++gi) {
    if (!games[gi]) continue;
    Game& g = *games[gi];
    for (Waiting& w : g.waiting) {
      const SeatAgent& a = g.seats[at(w.seat)];
      w.slot = base[gi * np + static_cast<std::size_t>(a.policy)]++;
      if (a.learner) {
        w.stored = static_cast<std::int64_t>(g.traj[at(w.seat)].size());
        ++recorded;
        Rollout& r = g.traj[at(w.seat)];
        const std::size_t n = r.size() + 1;
        r.action.resize(n);
        r.logp.resize(n);
        r.value.resize(n);
        r.version.resize(n);
        r.game.push_back(g.index);
        r.seat.push_back(static_cast<std::uint8_t>(w.seat.index()));
        r.legal.resize(n);
        r.obs.resize(n * kObs);
        r.context.resize(n * kContext);
        r.opp_waits.resize(n * kOpponents);
        g.traj_kyoku[at(w.seat)].push_back(static_cast<int>(g.kyoku.size()) - 1);
      }
    }
  }
  hydra::parallel_for(0, games.size(), [&](std::size_t gi) {
    if (!games[gi]) return;
    Game& g = *games[gi];
    const auto t0 = Clock::now();
    for (const Waiting& w : g.waiting) {
      const std::size_t s = at(w.seat);
      const auto slot = static_cast<std::size_t>(w.slot);
      const game::PlayerView& view = g.table->view(w.seat);
      float* dst = b.obs.data() + slot * kObs;
      if (g.perm[s].identity()) g.enc[s].encode_into(view, dst);
      else g.perm[s].apply(g.enc[s].encode(view).v.data(), dst);
      // binary16 rounding before the forward pass: the learner sees exactly these values.
      std::uint16_t* half = w.stored >= 0 ? g.traj[s].obs.data() + static_cast<std::size_t>(w.stored) * kObs : nullptr;
      for (std::size_t k = 0; k < kObs; ++k) {
        // Most planes are 0/1 and exact in binary16: skip the general conversion for them.
        const float v = dst[k];
        std::uint16_t h = 0;
        if (v == 1.0f) {
          h = 0x3C00U;
        } else if (v != 0.0f || std::signbit(v)) {
          h = to_half(v);
          dst[k] = from_half(h);
        }
        if (half) half[k] = h;
      }
      const auto ctx = encoder::score_context(view);
      std::copy(ctx.begin(), ctx.end(), b.context.data() + slot * kContext);
      b.legal[slot] = g.perm[s](w.mask).bits();
      if (w.stored >= 0) {
        const auto i = static_cast<std::size_t>(w.stored);
        Rollout& r = g.traj[s];
        r.legal[i] = b.legal[slot];
        std::copy(ctx.begin(), ctx.end(), r.context.data() + i * kContext);
        for (int o = 1; o <= kOpponents; ++o)
          r.opp_waits[i * kOpponents + static_cast<std::size_t>(o - 1)] =
              permute_tiles(g.perm[s], g.table->view(w.seat.next(o)).waits().bits());
      }
    }
    g.encode_s += since(t0);
  });
}

void Actors::Impl::step(int group) {
  auto& games = groups[static_cast<std::size_t>(group)];
  const Batch& b = batches[static_cast<std::size_t>(group)];
  hydra::parallel_for(0, games.size(), [&](std::size_t gi) {
    if (!games[gi]) return;
    Game& g = *games[gi];
    const auto t0 = Clock::now();
    if (!g.waiting.empty()) apply_results(g, b);
    advance(g);
    g.engine_s += since(t0);
  });
  // Finishing and starting games is serial and in slot order: the game index counter advances
  // the same way whatever the thread count.
  std::vector<std::size_t> fresh;
  for (std::size_t gi = 0; gi < games.size(); ++gi) {
    if (games[gi] && games[gi]->table->done()) {
      finish_game(*games[gi]);
      games[gi].reset();
    }
    if (!games[gi] && recorded < min_samples) {
      start_game(games[gi]);
      fresh.push_back(gi);
    }
  }
  while (!fresh.empty()) {
    hydra::parallel_for(0, fresh.size(), [&](std::size_t k) {
      Game& g = *games[fresh[k]];
      const auto t0 = Clock::now();
      advance(g);
      g.engine_s += since(t0);
    });
    std::vector<std::size_t> again;
    for (std::size_t gi : fresh)
      if (games[gi]->table->done()) {  // a game without a network decision (all forced)
        finish_game(*games[gi]);
        games[gi].reset();
        if (recorded < min_samples) {
          start_game(games[gi]);
          again.push_back(gi);
        }
      }
    fresh = std::move(again);
  }
  encode_group(group);
}

Rollout Actors::Impl::collect(std::int64_t min) {
  const auto t0 = Clock::now();
  min_samples = min;
  recorded = 0;
  finished.clear();
  policies.clear();
  policies.push_back(learner);
  policies.push_back(baseline);
  for (const auto& p : pool) policies.push_back(p);
  for (Batch& b : batches) {
    b.begin.assign(policies.size(), 0);
    b.count.assign(policies.size(), 0);
    b.version.assign(policies.size(), 0);
    b.size = 0;
  }

  // Every slot starts a game (both groups, so they overlap from the first batch); later
  // refills stop once min_samples learner decisions are recorded.
  if (min_samples > 0)
    for (auto& games : groups)
      for (auto& slot : games)
        if (!slot) start_game(slot);
  step(0);
  submit(0);
  step(1);
  submit(1);
  for (;;) {
    bool active = false;
    for (int g = 0; g < 2; ++g) {
      wait(g);
      step(g);
      submit(g);
      active = active || batches[static_cast<std::size_t>(g)].size > 0;
    }
    if (!active) break;
  }
  // Both groups are idle: every game has finished.
  std::sort(finished.begin(), finished.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Rollout out;
  std::size_t n = 0;
  for (const auto& f : finished) n += f.second.size();
  out.reserve(n);
  for (const auto& f : finished) out.append(f.second);
  finished.clear();
  stats.wall_seconds += since(t0);
  return out;
}

// ---- Actors -----------------------------------------------------------------------------

Actors::Actors(const config::Config& cfg, game::MasterSeed master, std::shared_ptr<BatchPolicy> learner,
               std::shared_ptr<BatchPolicy> baseline)
    : impl_(std::make_unique<Impl>(*this, cfg, master, std::move(learner), std::move(baseline))) {}

Actors::~Actors() = default;

void Actors::set_learner(std::shared_ptr<BatchPolicy> p) {
  if (!p) throw Error("selfplay: set_learner needs a policy");
  impl_->learner = std::move(p);
}

void Actors::add_to_pool(std::shared_ptr<BatchPolicy> p) {
  if (!p) throw Error("selfplay: add_to_pool needs a policy");
  auto& pool = impl_->pool;
  pool.push_back(std::move(p));
  const auto keep = static_cast<std::size_t>(impl_->cfg.selfplay.pool_size);
  while (pool.size() > keep) pool.erase(pool.begin());
}

void Actors::set_reward_model(std::shared_ptr<KyokuRewardModel> m) { impl_->reward_model = std::move(m); }

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
