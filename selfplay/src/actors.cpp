// Self-play actors on the lock-step play engine (actors.hpp; docs/SELFPLAY.md).
//
// Each game is an engine game: bots and forced moves are answered inside it, network decisions
// go to the engine's per-policy batches. Encoding writes the seat's observation (under the seat's
// suit permutation, rounded to binary16) straight into its row and, for learner seats, into the
// seat's trajectory; choosing samples the action from the seat's own KDF stream. The engine runs
// the slots in two groups with an inference thread, so one group's batch is evaluated while the
// other group steps. Everything a game does depends only on its key and the policies' outputs, so
// thread count and timing never change a result.

#include "hydra/selfplay/actors.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>

#include "hydra/common/error.hpp"
#include "hydra/common/log.hpp"
#include "hydra/common/parallel.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/encoder/augment.hpp"
#include "hydra/encoder/context.hpp"
#include "hydra/encoder/encoder.hpp"
#include "hydra/encoder/privileged.hpp"
#include "hydra/game/agent.hpp"
#include "hydra/game/kyoku.hpp"
#include "hydra/game/rng.hpp"
#include "hydra/game/table.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/engine.hpp"
#include "hydra/selfplay/external_agent.hpp"
#include "hydra/selfplay/game_stats.hpp"
#include "hydra/common/index.hpp"

namespace hydra::selfplay {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kSeats = game::kNumSeats;
constexpr std::size_t kObs = encoder::kObsSize;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// A tile-type mask under a suit permutation (honours fixed).
std::uint64_t permute_tiles(const encoder::SuitPerm& p, std::uint64_t bits) {
  if (p.identity()) return bits;
  std::uint64_t out = 0;
  for (int t = 0; t < encoder::kTiles; ++t)
    if ((bits >> t) & 1U) out |= std::uint64_t{1} << p(game::TileType(t)).index();
  return out;
}

// The policy as the learner's seats sample it: sample_action's weights, normalised.
std::array<double, kActions> tempered_probs(const float* probs, game::ActionMask legal, double inv_t) {
  std::array<double, kActions> out = tempered_weights(probs, legal, inv_t);
  double total = 0;
  for (const double w : out) total += w;
  for (double& p : out) p /= total;
  return out;
}

// Where a greedy play-out ended: the next kyoku's start (absent when the game ended in this
// one) and the scores then (the final scores when it did).
struct PlayOutEnd {
  std::optional<game::KyokuStart> next;
  game::Scores scores{};
  std::int64_t decisions = 0;
};

// The rest of the kyoku from table `t` (whose only pending decision is `seat`'s) after `first`,
// played by bot:greedy in every seat, each seeded from the game key as at a game's start, so the
// play-out is a function of the table, the action and `walls` alone: with `walls` the kyoku's
// unseen tiles are first dealt again from that stream (Table::shuffle_unseen), otherwise it plays
// the game's own wall. Two play-outs from one decision with equal streams share the walls, the
// hands and every bot's stream (ppo.advantage = rollout, docs/PPO.md "Greedy play-outs").
// Decisions with one legal action are taken as the table would.
PlayOutEnd play_out(const game::Table& t, game::Seat seat, game::Action first, const game::GameKey& key,
                    std::optional<game::Xoshiro256ss> walls) {
  PlayOutEnd end;
  auto copy = t.branch([&end](const game::Table&, const game::Event& e) {
    if (e.type == game::EventType::start_kyoku && !end.next) end.next = game::kyoku_start(e);
  });
  if (walls) copy->shuffle_unseen(*walls);
  game::SeatArray<GreedyAgent> bots;
  for (int s = 0; s < game::kNumSeats; ++s) bots[game::Seat(s)].start_game(game::Seat(s), key);
  copy->act(seat, first);
  while (!copy->done() && !end.next) {
    const auto pending = copy->pending();  // answering the last one replaces the list
    for (const game::Decision& d : pending) {
      ++end.decisions;
      copy->act(d.seat, d.mask.count() == 1 ? d.mask.nth(0) : bots[d.seat].act(copy->view(d.seat), d));
    }
  }
  end.scores = copy->done() ? copy->final_scores() : copy->scores();
  return end;
}

// The agent of one seat of one game.
struct SeatAgent {
  BatchPolicy* policy = nullptr;     // null: a bot
  std::unique_ptr<game::Agent> bot;  // when policy is null
  ObservingAgent* observer = nullptr;  // the bot, when it reads every event (an external process)
  bool learner = false;              // the current snapshot: its decisions are stored
  std::string name;                  // in the game log
};

class ActorGame final : public EngineGame {
 public:
  ActorGame(double temperature, bool privileged, bool paired, bool rollout, std::atomic<std::int64_t>& recorded)
      : temperature_(temperature), privileged_(privileged), paired_(paired), rollout_(rollout), recorded_(recorded) {}

  game::Table& table() override { return *table_; }
  // A branch ends with its kyoku (when the next one starts) or with the game.
  bool over() override { return table_->done() || (parent && kyoku.size() > branch_kyoku + 1); }

  BatchPolicy* policy(const game::Decision& d) override {
    if (d.mask.count() == 1) return nullptr;
    return seats[d.seat].policy;
  }

  game::Action act(const game::Decision& d) override {
    ++decisions;
    if (d.mask.count() == 1) {
      ++forced;
      return d.mask.nth(0);
    }
    return seats[d.seat].bot->act(table_->view(d.seat), d);
  }

  void encode(const game::Decision& d, const Row& row) override {
    const std::size_t s = ix(d.seat.index());
    std::int64_t stored = -1;
    if (seats[s].learner && !parent) {
      Rollout& r = traj[s];
      stored = static_cast<std::int64_t>(r.size());
      const std::size_t n = r.size() + 1;
      r.action.resize(n);
      r.logp.resize(n);
      r.value.resize(n);
      r.version.resize(n);
      r.game.push_back(index);
      r.seat.push_back(static_cast<std::uint8_t>(d.seat.index()));
      r.legal.resize(n);
      r.obs.resize(n * kObs);
      r.context.resize(n * kContext);
      r.opp_waits.resize(n * kOpponents);
      traj_kyoku[s].push_back(static_cast<int>(kyoku.size()) - 1);
      if (paired_ || rollout_) {
        r.paired.resize(n);
        r.paired_advantage.resize(n);
      }
      if (play_out_min_prob >= 0) {
        r.played_out.resize(n);
        r.action_value.resize(n * kActions);
      }
      if (paired_) branch_reward[s].resize(n);
      recorded_.fetch_add(1, std::memory_order_relaxed);
    }
    stored_.push_back(stored);
    const game::PlayerView& view = table_->view(d.seat);
    if (perm[s].identity()) enc[s].encode_into(view, row.obs);
    else perm[s].apply(enc[s].encode(view).v.data(), row.obs);
    // binary16 rounding before the forward pass: the learner sees exactly these values.
    round_to_half(row.obs, stored >= 0 ? traj[s].obs.data() + ix(stored) * kObs : nullptr, kObs);
    const auto ctx = encoder::score_context(view);
    std::copy(ctx.begin(), ctx.end(), row.context);
    *row.legal = perm[s](d.mask);
    if (stored >= 0) {
      const auto i = ix(stored);
      Rollout& r = traj[s];
      r.legal[i] = row.legal->bits();
      std::copy(ctx.begin(), ctx.end(), r.context.data() + i * kContext);
      for (int o = 1; o <= kOpponents; ++o)
        r.opp_waits[i * kOpponents + static_cast<std::size_t>(o - 1)] =
            permute_tiles(perm[s], table_->view(d.seat.next(o)).waits().bits());
      if (privileged_) {  // for the learner's privileged critic only; no policy reads them
        r.priv.resize((i + 1) * encoder::kPrivilegedSize);
        encoder::privileged_planes(*table_, d.seat, perm[s], priv_.data());
        round_to_half(priv_.data(), r.priv.data() + i * encoder::kPrivilegedSize, encoder::kPrivilegedSize);
      }
    }
  }

  game::Action choose(const game::Decision& d, const RowResult& res) override {
    const std::size_t s = ix(d.seat.index());
    const std::int64_t stored = stored_[chosen_++];
    if (chosen_ == stored_.size()) {
      stored_.clear();
      chosen_ = 0;
    }
    // selfplay.temperature shapes the learner's own seats; snapshots opposing it play at T = 1.
    const double inv_t = seats[s].learner ? 1.0 / temperature_ : 1.0;
    const game::ActionMask legal = perm[s](d.mask);
    const int chosen = sample_action(res.probs, legal, inv_t, rng[s].uniform01());
    if (stored >= 0) {
      const auto i = ix(stored);
      Rollout& r = traj[s];
      r.action[i] = static_cast<std::int16_t>(chosen);
      // The behaviour policy's log-probability: at T != 1 the tempered one the action was drawn
      // from, so the learner's ratio is the right importance weight.
      r.logp[i] = static_cast<float>(sampled_log_prob(res.probs, legal, inv_t, chosen));
      r.value[i] = res.value;
      r.version[i] = res.version;
      // A paired branch: where this decision is the table's only pending one, a second action b
      // from the same policy (its own stream) and, when b differs, the rest of the kyoku from here
      // with b. Whether a decision is paired does not depend on its action, so R(a) - R(b) stays
      // an unbiased advantage.
      if (branch_rate > 0 && table_->pending().size() == 1) {
        const double u_pair = branch_rng[s].uniform01();
        const double u_alt = branch_rng[s].uniform01();
        if (u_pair < branch_rate) r.paired[i] = 1;
        if (u_pair < branch_rate && rollout_) {
          // Greedy play-outs: the rest of the kyoku played out by the bot after the greedy bot's
          // own choice g and after the sampled action a where it differs (the sampled form), or
          // after every action the policy gives at least play_out_min_prob (the expected form);
          // an action that is g has advantage 0 without a play-out.
          GreedyAgent bot;
          bot.start_game(d.seat, key);
          const game::Action g = bot.act(table_->view(d.seat), d);
          const int g_stored = perm[s](g).index();
          PlayOuts p{i, {}, {}, {}};
          if (play_out_min_prob >= 0) {
            const auto pi = tempered_probs(res.probs, legal, inv_t);
            r.played_out[i] = std::uint64_t{1} << g_stored;
            for (int x = 0; x < kActions; ++x)
              if (x != g_stored && legal.test(game::Action(x)) && pi[ix(x)] >= play_out_min_prob) {
                p.actions.push_back(x);
                r.played_out[i] |= std::uint64_t{1} << x;
              }
          } else if (chosen != g_stored) {
            p.actions.push_back(chosen);
          }
          if (!p.actions.empty()) {
            // Each play-out is a function of the table, its action and its wall alone, so they
            // run in parallel (a decision's play-outs are most of a step's work; without this one
            // game's play-outs would hold one core while the other games' steps are done).
            const auto walls = ix(play_out_walls), m = p.actions.size();
            p.played.resize(walls * m);
            p.greedy.resize(walls);
            hydra::parallel_for(0, walls * (m + 1), [&](std::size_t job) {
              const std::size_t k = job / (m + 1), j = job % (m + 1);
              std::optional<game::Xoshiro256ss> stream;
              if (walls > 1) stream.emplace(game::derive(key, game::labels::play_out, {s, i, k}));
              if (j == m) p.greedy[k] = play_out(*table_, d.seat, g, key, stream);
              else p.played[k * m + j] = play_out(*table_, d.seat, perm[s].inverse()(game::Action(p.actions[j])), key, stream);
            });
            for (const auto* ends : {&p.played, &p.greedy})
              for (const PlayOutEnd& e : *ends) play_out_decisions += e.decisions;
            ++play_out_pairs;
            play_outs[s].push_back(std::move(p));
          }
        } else if (u_pair < branch_rate) {
          const int alt = sample_action(res.probs, legal, inv_t, u_alt);
          if (alt != chosen) spawn(branch(d, perm[s].inverse()(game::Action(alt)), i));
        }
      }
    }
    ++decisions;
    ++network;
    const game::Action original = perm[s].inverse()(game::Action(chosen));
    HYDRA_CHECK(d.mask.test(original), "selfplay: a sampled action is not legal");
    return original;
  }

  // The game from decision `d` (stored as `stored` of its seat) on with action `alt` instead: the
  // table, the encoders and every seat's stream as they are now (common random numbers), the same
  // agents, nothing stored. It ends with the kyoku; finished() hands its reward to this game.
  std::unique_ptr<ActorGame> branch(const game::Decision& d, game::Action alt, std::size_t stored) {
    auto b = std::make_unique<ActorGame>(temperature_, false, false, false, recorded_);
    b->index = index;
    b->key = key;
    b->kind = kind;
    b->enc = enc;
    b->perm = perm;
    b->rng = rng;
    for (std::size_t t = 0; t < kSeats; ++t) {
      b->seats[t].policy = seats[t].policy;
      b->seats[t].learner = seats[t].learner;
    }
    b->kyoku = kyoku;
    b->parent = this;
    b->parent_seat = ix(d.seat.index());
    b->parent_decision = stored;
    b->branch_kyoku = kyoku.size() - 1;
    ActorGame* raw = b.get();
    b->table_ = table_->branch([raw](const game::Table& t, const game::Event& e) { raw->on_event(t, e); });
    b->table_->act(d.seat, alt);
    branched[d.seat].push_back(stored);
    ++open_branches;
    return b;
  }

  void on_event(const game::Table& t, const game::Event& e) {
    for (std::size_t s = 0; s < kSeats; ++s) {
      if (seats[s].policy) enc[s].observe(t.view(game::Seat(static_cast<int>(s))), e);
      if (seats[s].observer) seats[s].observer->observe(e);
    }
    if (e.type == game::EventType::start_kyoku) kyoku.push_back(game::kyoku_start(e));
    if (!parent) tally.add(e);
  }

  std::int64_t index = 0;
  game::GameKey key;
  OpponentKind kind = OpponentKind::self;
  std::unique_ptr<game::Table> table_;
  game::SeatArray<encoder::Encoder> enc{encoder::Encoder(game::Seat(0)), encoder::Encoder(game::Seat(1)),
                                        encoder::Encoder(game::Seat(2)), encoder::Encoder(game::Seat(3))};
  game::SeatArray<encoder::SuitPerm> perm{};
  game::SeatArray<game::Xoshiro256ss> rng{game::Xoshiro256ss(game::Digest{}), game::Xoshiro256ss(game::Digest{}),
                                             game::Xoshiro256ss(game::Digest{}), game::Xoshiro256ss(game::Digest{})};
  game::SeatArray<SeatAgent> seats;

  // Trajectories of the learner seats, and the kyoku index of each stored decision.
  game::SeatArray<Rollout> traj;
  game::SeatArray<std::vector<int>> traj_kyoku;
  std::vector<game::KyokuStart> kyoku;                  // from the start_kyoku events
  GameTally tally;                                      // what each seat did, for the rates

  std::int64_t decisions = 0, network = 0, forced = 0;

  // Paired branches (ppo.advantage = paired). Of a game that branches: the share of its eligible
  // learner decisions paired (0: none; only games whose every seat is a policy branch), each
  // seat's stream of second actions, the stored decisions it branched, the branches' rewards
  // (per stored decision) and how many branches still play.
  double branch_rate = 0;
  game::SeatArray<game::Xoshiro256ss> branch_rng{
      game::Xoshiro256ss(game::Digest{}), game::Xoshiro256ss(game::Digest{}), game::Xoshiro256ss(game::Digest{}),
      game::Xoshiro256ss(game::Digest{})};
  game::SeatArray<std::vector<std::size_t>> branched;
  game::SeatArray<std::vector<double>> branch_reward;
  int open_branches = 0;
  // Of a branch: the game it came from, the seat and stored decision it answers for, and the
  // index in `kyoku` of the kyoku it plays.
  ActorGame* parent = nullptr;
  std::size_t parent_seat = 0, parent_decision = 0, branch_kyoku = 0;

  // Greedy play-outs (ppo.advantage = rollout): per learner seat, the stored decisions with
  // play-outs, the actions played out besides the greedy bot's choice (in the stored action space)
  // and where each play-out ended (their rewards are taken when the game settles, by the game's
  // reward model).
  struct PlayOuts {
    std::size_t stored = 0;
    std::vector<int> actions;
    std::vector<PlayOutEnd> played;  // per wall k, per action j: played[k * actions.size() + j]
    std::vector<PlayOutEnd> greedy;  // per wall
  };
  int play_out_walls = 1;  // selfplay.play_outs
  // The expected form (ppo.policy_gradient = expected): selfplay.play_out_min_prob; -1 = the
  // sampled form (only the action played).
  double play_out_min_prob = -1;
  game::SeatArray<std::vector<PlayOuts>> play_outs;
  std::int64_t play_out_pairs = 0, play_out_decisions = 0;

 private:
  double temperature_;
  bool privileged_;
  bool paired_;
  bool rollout_;
  std::array<float, encoder::kPrivilegedSize> priv_{};
  std::atomic<std::int64_t>& recorded_;
  std::vector<std::int64_t> stored_;  // per encoded decision of the step: its trajectory index or -1
  std::size_t chosen_ = 0;
};

}  // namespace

struct Actors::Impl final : EngineDriver {
  Impl(Actors& owner, const ActorsConfig& cfg, game::MasterSeed master, std::shared_ptr<BatchPolicy> learner,
       std::shared_ptr<BatchPolicy> baseline);

  Rollout collect(std::int64_t min_samples);
  std::unique_ptr<EngineGame> next() override;
  void finished(std::unique_ptr<EngineGame> game) override;
  void settle(ActorGame& g);          // a game and all its branches have ended
  void branch_ended(ActorGame& b);    // hands a branch's reward to its game

  Actors& owner;
  ActorsConfig cfg;
  game::TableRules rules;
  game::MasterSeed master;
  std::shared_ptr<BatchPolicy> learner, baseline;
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
  std::vector<std::unique_ptr<EngineGame>> parked;  // ended games whose branches still play
  std::atomic<std::int64_t> recorded{0};
  std::int64_t min_samples = 0;
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
  auto g = std::make_unique<ActorGame>(cfg.selfplay.temperature, cfg.privileged, cfg.paired, cfg.rollout, recorded);
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
      a.policy = learner.get();
      a.learner = true;
      a.name = version_name("hydra", *learner);
    } else if (g->kind == OpponentKind::pool) {
      a.policy = pool[pool_pick].get();
      a.name = version_name("pool", *pool[pool_pick]);
    } else if (!baseline_name.empty()) {
      a.bot = external ? external->make(baseline_name) : make_bot(baseline_name);
      a.observer = dynamic_cast<ObservingAgent*>(a.bot.get());
      a.bot->start_game(game::Seat(static_cast<int>(s)), g->key);
      a.name = baseline_name;
    } else {
      a.policy = baseline.get();
      a.name = version_name("baseline", *baseline);
    }
    g->rng[s] = game::Xoshiro256ss(game::derive(g->key, game::labels::exploration, {s}));
    if (sp.augment) {
      game::Xoshiro256ss aug(game::derive(g->key, game::labels::augmentation, {s}));
      g->perm[s] = encoder::SuitPerm::nth(static_cast<int>(aug.below(encoder::kNumSuitPerms)));
    }
  }
  // Paired branches copy the game mid-kyoku, agents included: only policies (stateless between
  // calls) can be copied, so games with a bot or an external agent do not branch.
  const bool all_policies = std::all_of(g->seats.begin(), g->seats.end(), [](const SeatAgent& a) { return a.policy; });
  // Greedy play-outs copy only the table (the bot plays every seat of them): every game has them.
  if ((cfg.paired && all_policies) || cfg.rollout) {
    g->branch_rate = sp.branch_rate;
    g->play_out_walls = sp.play_outs;
    if (cfg.rollout && cfg.expected) g->play_out_min_prob = sp.play_out_min_prob;
    for (std::size_t s = 0; s < kSeats; ++s)
      g->branch_rng[s] = game::Xoshiro256ss(game::derive(g->key, game::labels::branch, {s}));
  }
  ActorGame* raw = g.get();
  g->table_ = std::make_unique<game::Table>(rules, g->key, !log_dir.empty(),
                                            [raw](const game::Table& t, const game::Event& e) { raw->on_event(t, e); });
  return g;
}

// A branch hands its reward to its game; a game waits for its branches before it settles.
void Actors::Impl::finished(std::unique_ptr<EngineGame> game) {
  ActorGame& g = static_cast<ActorGame&>(*game);
  if (g.parent) {
    branch_ended(g);
    return;
  }
  if (g.open_branches > 0) {
    parked.push_back(std::move(game));
    return;
  }
  settle(g);
}

// The branch's kyoku reward for the seat it answers for, by the same reward model as its game:
// the kyoku starts it saw (its game's up to the branch's kyoku, then the next one's if the game
// goes on) and, when the game ended in it, the final scores.
void Actors::Impl::branch_ended(ActorGame& b) {
  ActorGame& p = *b.parent;
  const game::Scores& fin = b.table_->done() ? b.table_->final_scores() : b.table_->scores();
  KyokuRewardModel& model = reward_model ? *reward_model : score_rewards;
  const auto rewards = model.rewards(b.kyoku, fin);
  HYDRA_CHECK(rewards.size() > b.branch_kyoku, "selfplay: a branch's reward model gave no reward for its kyoku");
  p.branch_reward[b.parent_seat][b.parent_decision] = rewards[b.branch_kyoku][b.parent_seat];
  ++stats.branches;
  stats.branch_decisions += b.decisions;
  stats.engine_seconds += b.play_seconds;
  stats.encode_seconds += b.encode_seconds;
  if (--p.open_branches > 0) return;
  const auto it = std::find_if(parked.begin(), parked.end(), [&](const auto& q) { return q.get() == &p; });
  if (it == parked.end()) return;  // the game still plays
  const std::unique_ptr<EngineGame> done = std::move(*it);
  parked.erase(it);
  settle(p);
}

// Rewards and done flags, paired advantages, statistics, the game log; the game's rollout joins
// finished_games.
void Actors::Impl::settle(ActorGame& g) {
  // A game an external baseline failed in is void: its decisions are not learned from, its
  // result not counted (the fault is logged; the next game starts a new process).
  for (std::size_t s = 0; s < kSeats; ++s)
    if (const AgentFault* f = g.seats[s].observer ? g.seats[s].observer->fault() : nullptr) {
      log::warn("selfplay: game {} is void: {}", g.index, describe(*f));
      ++stats.void_games;
      return;
    }
  const game::Table& t = *g.table_;
  const game::Scores& fin = t.final_scores();
  const std::size_t nk = g.kyoku.size();
  const std::array<int, kSeats> rank = game::ranks(fin);  // ties to the seat nearer the first dealer

  KyokuRewardModel& model = reward_model ? *reward_model : score_rewards;
  const std::vector<std::array<double, 4>> rewards = model.rewards(g.kyoku, fin);
  HYDRA_CHECK(rewards.size() == nk, "selfplay: the reward model gave one reward per kyoku");

  const GameStats seat_games = g.tally.finish(fin, rules.uma_eval);
  Rollout out;
  KindStats& ks = stats.kinds[ix(g.kind)];
  ++ks.games;
  for (std::size_t s = 0; s < kSeats; ++s) {
    if (!g.seats[s].learner) continue;
    stats.unearned_kyoku += assign_episode_rewards(g.traj[s], g.traj_kyoku[s], rewards, s);
    Rollout& tr = g.traj[s];
    for (const std::size_t i : g.branched[s]) {
      const auto k = ix(g.traj_kyoku[s][i]);
      tr.paired_advantage[i] = static_cast<float>(rewards[k][s] - g.branch_reward[s][i]);
    }
    // Greedy play-outs: the seat's reward for its kyoku after each play-out, all of one decision's
    // play-outs in one call (they share the kyoku starts up to the decision's kyoku); an action's
    // advantage is the mean over the walls of its reward less the greedy choice's.
    for (const auto& p : g.play_outs[s]) {
      const auto k = ix(g.traj_kyoku[s][p.stored]);
      const std::vector<game::KyokuStart> seen(g.kyoku.begin(), g.kyoku.begin() + static_cast<std::ptrdiff_t>(k) + 1);
      std::vector<std::optional<game::KyokuStart>> next;
      std::vector<game::Scores> scores;
      for (const auto* ends : {&p.played, &p.greedy})
        for (const PlayOutEnd& e : *ends) {
          next.push_back(e.next);
          scores.push_back(e.scores);
        }
      const auto r = model.last_kyoku_rewards(seen, next, scores);
      const std::size_t walls = p.greedy.size(), m = p.actions.size();
      for (std::size_t j = 0; j < m; ++j) {
        double diff = 0;
        for (std::size_t w = 0; w < walls; ++w) diff += r[w * m + j][s] - r[walls * m + w][s];
        const auto adv = static_cast<float>(diff / static_cast<double>(walls));
        const auto x = ix(p.actions[j]);
        if (!tr.action_value.empty()) tr.action_value[p.stored * ix(kActions) + x] = adv;
        if (p.actions[j] == tr.action[p.stored]) tr.paired_advantage[p.stored] = adv;
      }
    }
    for (const std::uint8_t p : tr.paired) stats.paired += p;
    out.append(tr);

    ++ks.learner_seats;
    ++ks.ranks[ix(rank[s])];
    const SeatGame& sg = seat_games[s];
    ks.learner_kyoku += sg.kyoku;
    ks.wins += sg.wins;
    ks.deal_ins += sg.deal_ins;
    ks.riichi += sg.riichi;
    ks.calls += sg.call_kyoku;
  }
  out.games = 1;
  out.kyoku = static_cast<std::int64_t>(nk);
  out.all_decisions = g.decisions;

  stats.branches += g.play_out_pairs;
  stats.branch_decisions += g.play_out_decisions;
  stats.games += 1;
  stats.kyoku += static_cast<std::int64_t>(nk);
  stats.decisions += g.decisions;
  stats.network_decisions += g.network;
  stats.learner_decisions += static_cast<std::int64_t>(out.size());
  stats.forced += g.forced;
  stats.engine_seconds += g.play_seconds;
  stats.encode_seconds += g.encode_seconds;

  if (!log_dir.empty()) {
    data::GameLog log;
    for (std::size_t s = 0; s < kSeats; ++s) log.names[s] = g.seats[s].name;
    log.uri = "hydra-train:seed=" + std::to_string(master.value) + ":game=" + std::to_string(g.index) +
              ":opponents=" + opponent_kind_name(g.kind) + ":rules=" + rules.name;
    log.events = g.table_->take_events();
    char name[40];
    std::snprintf(name, sizeof name, "game_%08lld.json.gz", static_cast<long long>(g.index));
    data::write_mjai(log_dir / name, log);
  }
  finished_games.emplace_back(g.index, std::move(out));
  if (owner.progress) owner.progress(static_cast<std::int64_t>(finished_games.size()));
}

Rollout Actors::Impl::collect(std::int64_t min) {
  const auto t0 = Clock::now();
  min_samples = min;
  recorded.store(0);
  finished_games.clear();
  // Every slot starts a game (both groups, so they overlap from the first batch); later refills
  // stop once min_samples learner decisions are recorded.
  engine->run(*this);
  HYDRA_CHECK(parked.empty(), "selfplay: a game's branches did not all end");
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
  return ActorsConfig{cfg.rules, cfg.selfplay, cfg.ppo.critic == "privileged", cfg.ppo.advantage == "paired",
                      cfg.ppo.advantage == "rollout", cfg.ppo.policy_gradient == "expected"};
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
