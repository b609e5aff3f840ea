// The lock-step play engine (engine.hpp) and play_games (play.hpp) against the plain
// one-game-at-a-time driver (testing::play_one_observed): with a policy whose rows depend only on their own inputs, batching many games
// must play exactly the games that playing them one by one does, whatever the thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <oneapi/tbb/global_control.h>

#include "hydra/common/error.hpp"
#include "hydra/data/game_log.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/encoder/context.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/selfplay/play.hpp"
#include "one_game.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/engine.hpp"
#include "hydra/selfplay/model_agent.hpp"
#include "hydra/selfplay/policy.hpp"
#include "hydra/common/index.hpp"

namespace hydra::selfplay {
namespace {

constexpr std::size_t kGames = 12;

// Seat s of game g: a sampling or argmax model agent on one of two policies, or a bot, so games
// mix batched and inline seats and two policies share the batches.
struct Mix {
  std::shared_ptr<LinearTestPolicy> a = std::make_shared<LinearTestPolicy>(7);
  std::shared_ptr<LinearTestPolicy> b = std::make_shared<LinearTestPolicy>(8);
  const game::TableRules& rules = game::table_rules("tenhou-tonpuusen");

  std::unique_ptr<game::Agent> make(std::size_t g, std::size_t s) const {
    switch ((g + s) % 4) {
      case 0: return std::make_unique<ModelAgent>(a, rules, "a", ModelAgentOptions{true, 1.0});
      case 1: return std::make_unique<ModelAgent>(b, rules, "b", ModelAgentOptions{false, 1.0});
      case 2: return std::make_unique<ModelAgent>(a, rules, "a-hot", ModelAgentOptions{true, 2.0});
      default: return make_bot(g % 2 ? "bot:greedy" : "bot:random");
    }
  }
  game::GameKey key(std::size_t g) const { return game::game_key(game::MasterSeed{2026}, g); }
};

std::string dump(const std::vector<game::Event>& events) {
  data::GameLog log;
  std::string out;
  for (const game::Event& e : events) out += data::to_mjai_line(e, log) + "\n";
  return out;
}

std::vector<std::string> one_by_one(const Mix& mix) {
  std::vector<std::string> out;
  for (std::size_t g = 0; g < kGames; ++g) {
    std::array<std::unique_ptr<game::Agent>, 4> agents;
    std::array<game::Agent*, 4> seats{};
    for (std::size_t s = 0; s < 4; ++s) {
      agents[s] = mix.make(g, s);
      seats[s] = agents[s].get();
    }
    out.push_back(dump(testing::play_one_observed(mix.rules, mix.key(g), seats).events));
  }
  return out;
}

std::vector<std::string> lockstep(const Mix& mix, std::vector<std::size_t>* order = nullptr) {
  std::vector<std::string> out(kGames);
  std::mutex mu;
  play_games(
      mix.rules, kGames, kPlaySlots,
      [&](std::size_t g) {
        GameStart start;
        for (std::size_t s = 0; s < 4; ++s) start.agents[s] = mix.make(g, s);
        start.key = mix.key(g);
        return start;
      },
      [&](PlayedGame p) {
        EXPECT_TRUE(p.faults.empty());
        out[p.index] = dump(p.result.events);
        const std::scoped_lock lock(mu);
        if (order) order->push_back(p.index);
      });
  return out;
}

TEST(Engine, BatchedGamesAreTheGamesPlayedOneByOne) {
  const Mix mix;
  const auto expected = one_by_one(mix);
  const auto rows_before = mix.a->rows() + mix.b->rows();
  std::vector<std::size_t> order;
  EXPECT_EQ(lockstep(mix, &order), expected);
  EXPECT_EQ(order.size(), kGames);
  // The batched run evaluated as many rows as the one-by-one run (every model decision once).
  EXPECT_EQ(mix.a->rows() + mix.b->rows() - rows_before, rows_before);
}

// Policies that overlap (CUDA snapshots: BatchPolicy::overlaps) are evaluated on threads of their
// own within a step, beside the others on the engine's thread: the same games, every row once.
TEST(Engine, OverlappingPoliciesPlayTheSameGamesOnThreadsOfTheirOwn) {
  const Mix mix;
  const auto expected = one_by_one(mix);
  const auto rows_before = mix.a->rows() + mix.b->rows();
  mix.a->set_overlaps(true);
  EXPECT_EQ(lockstep(mix), expected);  // one on a thread of its own, one here
  EXPECT_EQ(mix.a->rows() + mix.b->rows() - rows_before, rows_before);
  mix.b->set_overlaps(true);
  EXPECT_EQ(lockstep(mix), expected);  // both overlap
  EXPECT_EQ(mix.a->rows() + mix.b->rows() - rows_before, 2 * rows_before);
}

TEST(Engine, ThreadCountChangesNothing) {
  const Mix mix;
  std::vector<std::size_t> order_all, order_one;
  const auto all = lockstep(mix, &order_all);
  std::vector<std::string> one;
  {
    oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism, 1);
    one = lockstep(mix, &order_one);
  }
  EXPECT_EQ(one, all);
  // Each game handed over once (games end in parallel, so the order of the calls is free).
  std::sort(order_all.begin(), order_all.end());
  std::sort(order_one.begin(), order_one.end());
  EXPECT_EQ(order_one, order_all);
  EXPECT_EQ(order_all.size(), kGames);
}

// A driver that hands out bot-only games: the engine finishes them without any batch.
class BotDriver final : public EngineDriver {
 public:
  explicit BotDriver(std::size_t games) : games_(games) {}
  std::unique_ptr<EngineGame> next() override {
    if (started_ == games_) return nullptr;
    return make_game();
  }
  void finished(std::unique_ptr<EngineGame>) override { ++finished_; }
  std::size_t finished_count() const { return finished_; }

 private:
  std::unique_ptr<EngineGame> make_game();
  std::size_t games_, started_ = 0, finished_ = 0;
};

class BotGame final : public EngineGame {
 public:
  explicit BotGame(std::uint64_t index)
      : table_(game::table_rules("tenhou-kyoku"), game::game_key(game::MasterSeed{1}, index)) {
    for (int s = 0; s < 4; ++s) {
      bots_[ix(s)] = make_bot("bot:random");
      bots_[ix(s)]->start_game(game::Seat(s), game::game_key(game::MasterSeed{1}, index));
    }
  }
  game::Table& table() override { return table_; }
  BatchPolicy* policy(const game::Decision&) override { return nullptr; }
  game::Action act(const game::Decision& d) override {
    return bots_[ix(d.seat.index())]->act(table_.view(d.seat), d);
  }
  void encode(const game::Decision&, const Row&) override { throw InvariantError("a bot game has no rows"); }
  game::Action choose(const game::Decision&, const RowResult&) override {
    throw InvariantError("a bot game has no rows");
  }

 private:
  game::Table table_;
  std::array<std::unique_ptr<game::Agent>, 4> bots_;
};

std::unique_ptr<EngineGame> BotDriver::make_game() { return std::make_unique<BotGame>(started_++); }

TEST(Engine, GamesWithoutNetworkDecisionsFinishAndSlotsRefill) {
  for (const std::vector<std::size_t>& groups : {std::vector<std::size_t>{3}, std::vector<std::size_t>{2, 3}}) {
    BotDriver driver(10);
    EngineOptions eo;
    eo.groups = groups;
    Engine engine(eo);
    engine.run(driver);
    EXPECT_EQ(driver.finished_count(), 10u);
    EXPECT_EQ(engine.take_stats().forward_passes, 0);
  }
}

// A game that spawns branches (EngineGame::spawn): every `every`-th of its decisions that is the
// table's only pending one, a copy of the table from there (Table::branch), played by the same
// deterministic policy to the end of its kyoku. The parent records its events; a branch records
// the events it saw.
class BranchingGame final : public EngineGame {
 public:
  BranchingGame(LinearTestPolicy& policy, std::uint64_t index, int every)
      : policy_(policy), every_(every), index_(index) {
    table_ = std::make_unique<game::Table>(game::table_rules("tenhou-tonpuusen"),
                                           game::game_key(game::MasterSeed{5}, index), true);
  }
  game::Table& table() override { return *table_; }
  bool over() override { return table_->done() || kyoku_starts_ > 0; }
  BatchPolicy* policy(const game::Decision& d) override { return d.mask.count() > 1 ? &policy_ : nullptr; }
  game::Action act(const game::Decision& d) override { return d.mask.nth(0); }
  void encode(const game::Decision& d, const Row& row) override {
    std::fill(row.obs, row.obs + encoder::kObsSize, 0.0f);
    const game::PlayerView& v = table_->view(d.seat);
    for (std::size_t t = 0; t < 34; ++t) row.obs[t] = static_cast<float>(v.hand().closed[t]);
    row.obs[34] = static_cast<float>(table_->decisions() % 7);
    std::fill(row.context, row.context + encoder::kContextSize, 0.0f);
    *row.legal = d.mask;
  }
  game::Action choose(const game::Decision& d, const RowResult& r) override {
    if (!branch_ && every_ > 0 && table_->pending().size() == 1 && ++decisions_ % every_ == 0) {
      auto b = std::make_unique<BranchingGame>(policy_, index_, 0);
      b->branch_ = true;
      b->start_ = table_->events().size();
      b->parent_ = index_;
      BranchingGame* raw = b.get();
      b->table_ = table_->branch([raw](const game::Table&, const game::Event& e) {
        raw->seen_.push_back(e);
        if (e.type == game::EventType::start_kyoku) ++raw->kyoku_starts_;
      });
      spawn(std::move(b));
    }
    int best = -1;  // argmax: a branch answers as its game did
    for (int a = 0; a < game::kNumActions; ++a)
      if (d.mask.test(game::Action(a)) && (best < 0 || r.probs[a] > r.probs[best])) best = a;
    return game::Action(best);
  }

  std::unique_ptr<game::Table> table_;
  LinearTestPolicy& policy_;
  int every_, decisions_ = 0, kyoku_starts_ = 0;
  bool branch_ = false;
  std::uint64_t index_, parent_ = 0;
  std::size_t start_ = 0;                // of a branch: where its game's events stood
  std::vector<game::Event> seen_;
};

struct BranchRun {
  std::vector<std::string> games;               // by index: the whole game's events
  std::vector<std::pair<std::uint64_t, std::string>> branches;  // in the order they finished
  std::vector<std::size_t> branch_starts;
  std::map<std::uint64_t, std::vector<game::Event>> events;
};

class BranchingDriver final : public EngineDriver {
 public:
  BranchingDriver(LinearTestPolicy& p, std::size_t games, int every, BranchRun& out)
      : policy_(p), games_(games), every_(every), out_(out) {
    out_.games.resize(games);
  }
  std::unique_ptr<EngineGame> next() override {
    if (started_ == games_) return nullptr;
    return std::make_unique<BranchingGame>(policy_, started_++, every_);
  }
  void finished(std::unique_ptr<EngineGame> game) override {
    auto& g = static_cast<BranchingGame&>(*game);
    if (g.branch_) {
      out_.branches.emplace_back(g.parent_, dump(g.seen_));
      out_.branch_starts.push_back(g.start_);
    } else {
      out_.games[g.index_] = dump(g.table_->events());
      out_.events[g.index_] = g.table_->events();
    }
  }

 private:
  LinearTestPolicy& policy_;
  std::size_t games_, started_ = 0;
  int every_;
  BranchRun& out_;
};

BranchRun run_branching(std::vector<std::size_t> groups, int every) {
  LinearTestPolicy policy(11);
  BranchRun out;
  BranchingDriver driver(policy, 3, every, out);
  EngineOptions eo;
  eo.groups = std::move(groups);
  Engine engine(eo);
  engine.run(driver);
  return out;
}

// Spawned games play beside their games and end through the driver; spawning changes none of the
// games; a branch that answers as its game did plays exactly its game's events to its kyoku's
// end; and none of it depends on the thread count or the groups.
TEST(Engine, SpawnedBranchesReplayTheirGamesToTheEndOfTheKyokuAtAnyThreadCount) {
  const BranchRun plain = run_branching({2}, 0);
  const BranchRun run = run_branching({2}, 6);
  EXPECT_EQ(run.games, plain.games);
  ASSERT_GT(run.branches.size(), 20u);
  for (std::size_t k = 0; k < run.branches.size(); ++k) {
    const auto& [parent, seen] = run.branches[k];
    const auto& all = run.events.at(parent);
    const std::size_t start = run.branch_starts[k];
    std::size_t n = 0;
    for (std::size_t i = 0; i < seen.size(); ++i) n += seen[i] == '\n';
    ASSERT_LE(start + n, all.size());
    const std::vector<game::Event> expected(all.begin() + static_cast<std::ptrdiff_t>(start),
                                            all.begin() + static_cast<std::ptrdiff_t>(start + n));
    EXPECT_EQ(seen, dump(expected)) << "branch " << k << " of game " << parent;
  }
  BranchRun one;
  {
    oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism, 1);
    one = run_branching({1, 1}, 6);
  }
  EXPECT_EQ(one.games, run.games);
  std::multiset<std::pair<std::uint64_t, std::string>> a(run.branches.begin(), run.branches.end()),
      b(one.branches.begin(), one.branches.end());
  EXPECT_EQ(a, b);
}

TEST(Engine, BadGroupsAreRefused) {
  EngineOptions none;
  none.groups = {};
  EXPECT_THROW(Engine{none}, Error);
  EngineOptions three;
  three.groups = {1, 1, 1};
  EXPECT_THROW(Engine{three}, Error);
  EngineOptions empty;
  empty.groups = {0};
  EXPECT_THROW(Engine{empty}, Error);
}

}  // namespace
}  // namespace hydra::selfplay
