// Search at decision time (search.hpp; docs/EVAL.md "Search"): the deal of what a seat cannot
// see depends on nothing hidden and keeps every public fact; a game deals again at any of its
// decisions and plays on to its end; a search reads nothing its seat cannot see; searching games
// give the same games at one and two threads and for one seed.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <array>
#include <string>
#include <vector>

#include <oneapi/tbb/global_control.h>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/data/dataset.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/game/event.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/shanten.hpp"
#include "hydra/game/table.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/engine.hpp"
#include "hydra/selfplay/model_agent.hpp"
#include "hydra/selfplay/play.hpp"
#include "hydra/selfplay/policy.hpp"
#include "hydra/selfplay/rewards.hpp"
#include "hydra/selfplay/search.hpp"
#include "sanitized.hpp"

namespace hydra::selfplay {
namespace {

const game::TableRules& rules() { return game::table_rules("tenhou"); }

// Everything a table holds about the hidden tiles and the decisions: every seat's closed tiles,
// the wall's tiles as the seats would see them, the pending decisions.
std::vector<int> hidden_state(const game::Table& t) {
  std::vector<int> out;
  for (int s = 0; s < 4; ++s)
    for (game::Pai p : game::closed_tiles(t.view(game::Seat(s)).hand())) out.push_back(p.index());
  for (game::Tile tile : t.wall().tiles()) out.push_back(game::Pai(tile.type(), tile.is_red()).index());
  for (const game::Decision& d : t.pending()) {
    out.push_back(d.seat.index());
    for (int a = 0; a < game::kNumActions; ++a) out.push_back(d.mask.test(game::Action(a)) ? 1 : 0);
  }
  return out;
}

// The public part of seat `s`'s view of a table (rivers, melds, riichi, indicators, scores, the
// wall's count), with its own closed tiles first when `own`.
std::vector<int> public_state(const game::Table& t, game::Seat s, bool own) {
  const game::PlayerView& v = t.view(s);
  std::vector<int> out;
  if (own)
    for (game::Pai p : game::closed_tiles(v.hand())) out.push_back(p.index());
  out.push_back(-1);
  out.push_back(v.live_left());
  for (int o = 0; o < 4; ++o) {
    for (const game::RiverTile& r : v.river(game::Seat(o))) out.push_back(2 * r.pai.index() + (r.tsumogiri ? 1 : 0));
    out.push_back(static_cast<int>(v.melds(game::Seat(o)).size()));
    out.push_back(v.riichi(game::Seat(o)) ? 1 : 0);
  }
  for (game::Pai p : v.dora_markers()) out.push_back(p.index());
  for (int o = 0; o < 4; ++o) out.push_back(v.scores()[ix(o)]);
  return out;
}

// Tile kinds (red fives apart) of the seats' closed tiles and the wall's unseen positions.
std::vector<int> unseen_counts(const game::Table& t, game::Seat seat) {
  std::vector<int> c(38, 0);
  for (int s = 0; s < 4; ++s)
    if (game::Seat(s) != seat)
      for (game::Pai p : game::closed_tiles(t.view(game::Seat(s)).hand())) ++c[ix(p.index())];
  std::array<int, game::kNumTiles> at{};
  const int n = t.wall().unseen_positions(at);
  for (int k = 0; k < n; ++k) {
    const game::Tile tile = t.wall().tiles()[ix(at[ix(k)])];
    ++c[ix(game::Pai(tile.type(), tile.is_red()).index())];
  }
  return c;
}

// Plays a game of bot:greedy to the end; `at` is called before each decision is answered.
template <class F>
void play_greedy(game::Table& t, const game::GameKey& key, F at) {
  game::SeatArray<GreedyAgent> bots;
  for (int s = 0; s < 4; ++s) bots[game::Seat(s)].start_game(game::Seat(s), key);
  int n = 0;
  while (!t.done()) {
    const auto pending = t.pending();
    for (const game::Decision& d : pending) {
      at(t, d, n++);
      if (t.done()) return;
      t.act(d.seat, bots[d.seat].act(t.view(d.seat), d));
    }
  }
}

TEST(Redeal, DependsOnlyOnWhatTheSeatSeesAndKeepsEveryPublicFact) {
  int checked = 0, responses = 0, riichi = 0, late = 0;
  double dealt_shanten = 0, uniform_shanten = 0;
  for (std::uint64_t g = 0; g < 6; ++g) {
    const game::GameKey key = game::game_key(game::MasterSeed{5}, g);
    game::Table t(rules(), key, false);
    play_greedy(t, key, [&](game::Table& table, const game::Decision& d, int n) {
      if (n % 7 != 0) return;
      const game::Seat s = d.seat;
      game::Xoshiro256ss other(game::derive(key, "test", {static_cast<std::uint64_t>(n), 0}));
      // Another truth the seat cannot tell from this one: the hidden tiles dealt otherwise.
      auto truth2 = table.branch({});
      truth2->redeal_hidden(s, other);
      ASSERT_EQ(unseen_counts(*truth2, s), unseen_counts(table, s));
      for (int o = 0; o < 4; ++o)
        ASSERT_EQ(public_state(*truth2, game::Seat(o), false), public_state(table, game::Seat(o), false));
      ASSERT_EQ(public_state(*truth2, s, true), public_state(table, s, true));
      // The same deal from both truths.
      auto a = table.branch({});
      auto b = truth2->branch({});
      game::Xoshiro256ss r1(game::derive(key, "test", {static_cast<std::uint64_t>(n), 1}));
      game::Xoshiro256ss r2 = r1;
      a->redeal_hidden(s, r1);
      b->redeal_hidden(s, r2);
      ASSERT_EQ(hidden_state(*a), hidden_state(*b)) << "game " << g << " decision " << n;
      // A seat that has discarded 8 or more times gets a hand nearer to winning than a uniform
      // draw of as many tiles from the same pool (drawn here).
      const std::vector<int> pool = unseen_counts(table, s);
      for (int o = 0; o < 4; ++o) {
        const game::Seat os(o);
        if (os == s || table.view(s).riichi_declared(os) || table.view(s).river(os).size() < 8) continue;
        const game::Hand& h = a->view(os).hand();
        std::vector<int> tiles;
        for (int kind = 0; kind < 38; ++kind)
          for (int c = 0; c < pool[ix(kind)]; ++c) tiles.push_back(kind);
        game::Xoshiro256ss u(game::derive(key, "test", {static_cast<std::uint64_t>(n), 2, static_cast<std::uint64_t>(o)}));
        game::shuffle(std::span<int>(tiles), u);
        game::TileCounts c{};
        for (int i = 0; i < h.closed_size(); ++i)
          ++c[ix(game::Pai::from_index(tiles[ix(i)]).type().index())];
        dealt_shanten += game::shanten_best(h.closed);
        uniform_shanten += game::shanten_best(c);
        ++late;
      }
      // A seat in riichi is dealt a tenpai hand, not waiting on its own discards.
      for (int o = 0; o < 4; ++o) {
        const game::Seat os(o);
        if (os == s || !table.view(s).riichi_declared(os)) continue;
        const game::PlayerView& v = a->view(os);
        ASSERT_TRUE(v.tenpai()) << game::to_string(v.hand());
        for (const game::RiverTile& r : v.river(os)) EXPECT_FALSE(v.waits().contains(r.pai.type()));
        ++riichi;
      }
      ASSERT_EQ(public_state(*a, s, true), public_state(table, s, true));
      bool pending_for_s = false;
      for (const game::Decision& p : a->pending()) pending_for_s = pending_for_s || (p.seat == s && p.mask == d.mask);
      ASSERT_TRUE(pending_for_s);
      responses += a->pending().size() > 1;
      ++checked;
    });
  }
  EXPECT_GT(checked, 100);
  EXPECT_GT(responses, 0);  // some decisions had other seats pending, asked again from their new hands
  EXPECT_GT(riichi, 10);
  ASSERT_GT(late, 50);
  EXPECT_LT(dealt_shanten / late, uniform_shanten / late - 0.3) << late << " hands";
}

TEST(Redeal, AGameDealtAgainAtAnyDecisionPlaysOnToItsEnd) {
  // Deal again at every 5th decision of each game, then let bot:greedy finish from there: every
  // engine check holds on the way (a riichi seat may hold a hand that is not tenpai).
  int continued = 0;
  for (std::uint64_t g = 0; g < 8; ++g) {
    const game::GameKey key = game::game_key(game::MasterSeed{11}, g);
    game::Table t(rules(), key, false);
    play_greedy(t, key, [&](game::Table& table, const game::Decision& d, int n) {
      if (n % 5 != 0) return;
      auto c = table.branch({});
      game::Xoshiro256ss r(game::derive(key, "test", {static_cast<std::uint64_t>(n)}));
      c->redeal_hidden(d.seat, r);
      const int kyoku = c->kyoku_played();
      play_greedy(*c, key, [&](game::Table&, const game::Decision&, int) {});
      EXPECT_TRUE(c->done());
      EXPECT_GE(c->kyoku_played(), kyoku);
      ++continued;
    });
  }
  EXPECT_GT(continued, 200);
}

// A search agent and its counters over a linear test policy, under `rules`.
struct SearchSetup {
  std::shared_ptr<LinearTestPolicy> policy = std::make_shared<LinearTestPolicy>(3);
  std::shared_ptr<SearchCounters> counters = std::make_shared<SearchCounters>();
  std::shared_ptr<LinearTestPolicy> others = std::make_shared<LinearTestPolicy>(6);  // for others=CKPT3
  SearchOptions options;
  const game::TableRules* table_rules = &rules();
  SearchSetup() {
    options.walls = 2;
    options.threshold = 0.05;
    options.candidates = 2;
    options.sigmas = 0;  // every positive gain plays: the changed decisions are exercised too
  }
  std::unique_ptr<SearchAgent> agent() const {
    return std::make_unique<SearchAgent>(policy, options.greedy() ? nullptr : policy, *table_rules, "search:test",
                                         options, counters, nullptr, options.network_others() ? others : nullptr);
  }
};

// The engine games of one search, played to their ends.
class Games final : public EngineDriver {
 public:
  explicit Games(std::vector<std::unique_ptr<EngineGame>> g) : games_(std::move(g)) {}
  std::unique_ptr<EngineGame> next() override {
    if (next_ == games_.size()) return nullptr;
    return std::move(games_[next_++]);
  }
  void finished(std::unique_ptr<EngineGame>) override {}

 private:
  std::vector<std::unique_ptr<EngineGame>> games_;
  std::size_t next_ = 0;
};

TEST(Search, ReadsNothingItsSeatCannotSee) {
  // At decisions of a greedy game, the search from the true table and from another truth the
  // seat cannot tell from it (its hidden tiles dealt otherwise) gives the same value to every
  // candidate, to the last bit.
  SearchSetup setup;
  int compared = 0;
  const game::GameKey key = game::game_key(game::MasterSeed{21}, 0);
  game::Table t(rules(), key, true);
  play_greedy(t, key, [&](game::Table& table, const game::Decision& d, int n) {
    if (n % 11 != 0 || table.pending().size() != 1 || d.mask.count() < 2 || compared >= 3) return;
    auto agent = setup.agent();
    agent->start_game(d.seat, key);
    for (const game::Event& e : table.events()) agent->observe(e);
    std::vector<game::Action> cands;
    for (int a = 0; a < game::kNumActions && cands.size() < 3; ++a)
      if (d.mask.test(game::Action(a))) cands.emplace_back(a);
    auto other = table.branch({});
    game::Xoshiro256ss r(game::derive(key, "test", {static_cast<std::uint64_t>(n)}));
    other->redeal_hidden(d.seat, r);
    ASSERT_NE(hidden_state(*other), hidden_state(table));
    std::vector<std::vector<double>> values;
    for (const game::Table* truth : {&table, other.get()}) {
      Search search(*truth, d.seat, *agent, cands, 7);
      Games games(search.take_games());
      Engine engine(EngineOptions{});
      engine.run(games);
      ASSERT_TRUE(search.done());
      values.push_back(search.values());
    }
    EXPECT_EQ(values[0], values[1]) << "decision " << n;
    ++compared;
  });
  EXPECT_EQ(compared, 3);
}

// continuation=greedy: on each deal a candidate's play-out is the greedy bot's kyoku in every
// seat, each bot seeded from the game key. Its value is the mean, over the search's deals (keyed
// by the game key, the seat, the decision's number and the deal's), of the seat's score change
// / 10,000 (plus the placement points where the game ends), here played out by a plain loop.
TEST(Search, AGreedyContinuationScoresEachDealByTheGreedyBotsKyoku) {
  SearchSetup setup;
  setup.options.continuation = std::string(kGreedyContinuation);
  setup.options.walls = 3;
  int compared = 0;
  const game::GameKey key = game::game_key(game::MasterSeed{25}, 0);
  game::Table t(rules(), key, true);
  play_greedy(t, key, [&](game::Table& table, const game::Decision& d, int n) {
    if (n % 7 != 0 || table.pending().size() != 1 || d.mask.count() < 2 || compared >= 5) return;
    auto agent = setup.agent();
    agent->start_game(d.seat, key);
    for (const game::Event& e : table.events()) agent->observe(e);
    std::vector<game::Action> cands;
    for (int a = game::kNumActions - 1; a >= 0 && cands.size() < 3; --a)
      if (d.mask.test(game::Action(a))) cands.emplace_back(a);
    const std::uint64_t index = 4;
    Search search(table, d.seat, *agent, cands, index);
    Games games(search.take_games());
    Engine engine(EngineOptions{});
    engine.run(games);
    ASSERT_TRUE(search.done());
    const std::vector<double> got = search.values();
    const auto s = static_cast<std::uint64_t>(d.seat.index());
    for (std::size_t k = 0; k < cands.size(); ++k) {
      double sum = 0;
      for (int w = 0; w < setup.options.walls; ++w) {
        auto dealt = table.branch({});
        game::Xoshiro256ss deal(game::derive(key, game::labels::search, {s, index, static_cast<std::uint64_t>(w), 0}));
        dealt->redeal_hidden(d.seat, deal);
        bool next_kyoku = false;
        auto play = dealt->branch([&](const game::Table&, const game::Event& e) {
          next_kyoku = next_kyoku || e.type == game::EventType::start_kyoku;
        });
        game::SeatArray<GreedyAgent> bots;
        for (int o = 0; o < 4; ++o) bots[game::Seat(o)].start_game(game::Seat(o), key);
        play->act(d.seat, cands[k]);
        while (!play->done() && !next_kyoku)
          for (const game::Decision& p : game::FixedVec<game::Decision, game::kNumSeats>(play->pending()))
            play->act(p.seat, bots[p.seat].act(play->view(p.seat), p));
        const game::Scores end = play->done() ? play->final_scores() : play->scores();
        double r = (end[ix(s)] - table.scores()[ix(s)]) / kRewardScale;
        if (play->done()) r += kPlacementReward[ix(game::ranks(end)[ix(s)])];
        sum += r;
      }
      EXPECT_NEAR(got[k], sum / setup.options.walls, 1e-12) << "decision " << n << ", candidate " << k;
    }
    ++compared;
  });
  EXPECT_EQ(compared, 5);
  // No network played on (the agent was given none): its own was never asked.
  EXPECT_EQ(setup.policy->rows(), 0);
}

// The score model behind the reward interface a GRP answers through, counting its calls.
class CountingScoreModel final : public KyokuRewardModel {
 public:
  std::vector<std::array<double, 4>> rewards(const std::vector<game::KyokuStart>& kyoku,
                                             const std::array<int, 4>& final_scores) override {
    return score_.rewards(kyoku, final_scores);
  }
  std::vector<std::array<double, 4>> last_kyoku_rewards(const std::vector<game::KyokuStart>& kyoku,
                                                        const std::vector<std::optional<game::KyokuStart>>& next,
                                                        const std::vector<std::array<int, 4>>& scores) override {
    ++calls;
    ends += static_cast<int>(next.size());
    last_kyoku = kyoku;
    return score_.last_kyoku_rewards(kyoku, next, scores);
  }
  int calls = 0;
  int ends = 0;
  std::vector<game::KyokuStart> last_kyoku;

 private:
  ScoreRewardModel score_;
};

TEST(Search, ARewardModelIsAskedOnceForEveryPlayOutAndRanksAsItsRewardsDo) {
  // With the score model as its reward model (grp=), a search reads the game's kyoku starts the
  // agent observed, asks the model once for all its play-outs, and its values are the plain
  // search's plus one constant (the model counts from the kyoku's start, the plain search from
  // the decision): the same gains, the same choice.
  SearchSetup plain;
  SearchSetup graded;
  auto model = std::make_shared<CountingScoreModel>();
  auto reward = std::make_shared<SearchReward>();
  reward->model = model;
  graded.options.grp = "score.grp";
  int compared = 0;
  int ends = 0;
  const game::GameKey key = game::game_key(game::MasterSeed{23}, 0);
  game::Table t(rules(), key, true);
  play_greedy(t, key, [&](game::Table& table, const game::Decision& d, int n) {
    if (n % 13 != 0 || table.pending().size() != 1 || d.mask.count() < 2 || compared >= 4) return;
    std::vector<game::Action> cands;
    for (int a = 0; a < game::kNumActions && cands.size() < 3; ++a)
      if (d.mask.test(game::Action(a))) cands.emplace_back(a);
    std::vector<std::vector<double>> values;
    std::vector<game::Action> best;
    int kyoku_started = 0;
    for (const game::Event& e : table.events()) kyoku_started += e.type == game::EventType::start_kyoku ? 1 : 0;
    for (const bool with_model : {false, true}) {
      auto agent = with_model ? std::make_unique<SearchAgent>(graded.policy, graded.policy, rules(), "search:test",
                                                              graded.options, graded.counters, reward)
                              : plain.agent();
      agent->start_game(d.seat, key);
      for (const game::Event& e : table.events()) agent->observe(e);
      Search search(table, d.seat, *agent, cands, 5);
      Games games(search.take_games());
      Engine engine(EngineOptions{});
      engine.run(games);
      ASSERT_TRUE(search.done());
      const int calls = model->calls;
      values.push_back(search.values());
      best.push_back(search.best());
      EXPECT_EQ(model->calls, calls + (with_model ? 1 : 0));
    }
    ends += static_cast<int>(cands.size()) * graded.options.walls;
    EXPECT_EQ(model->ends, ends);
    EXPECT_EQ(static_cast<int>(model->last_kyoku.size()), kyoku_started);
    const double shift = values[1][0] - values[0][0];
    for (std::size_t k = 1; k < cands.size(); ++k)
      EXPECT_NEAR(values[1][k] - values[0][k], shift, 1e-12) << "decision " << n << ", candidate " << k;
    EXPECT_EQ(best[0], best[1]);
    ++compared;
  });
  EXPECT_EQ(compared, 4);
  // The agent refuses a grp option without its model, and a model without the option.
  EXPECT_THROW(SearchAgent(graded.policy, graded.policy, rules(), "s", graded.options, graded.counters),
               std::exception);
}

// One-kyoku games (eight unless told): seat 0 a search agent, the others the plain policy; every event of every
// game. (One kyoku each keeps the threaded test short under TSan.)
std::vector<std::vector<game::Event>> play_searching(SearchSetup& setup, int threads, std::size_t games = 8,
                                                     std::vector<std::vector<data::SearchNote>>* notes = nullptr) {
  const oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism, ix(threads));
  const game::TableRules& kyoku = game::table_rules("tenhou-kyoku");
  setup.table_rules = &kyoku;
  std::vector<std::vector<game::Event>> logs(games);
  play_games(
      kyoku, games, games,
      [&](std::size_t i) {
        GameStart s;
        s.key = game::game_key(game::MasterSeed{31}, i);
        s.agents[0] = setup.agent();
        for (int k = 1; k < 4; ++k) s.agents[ix(k)] = std::make_unique<ModelAgent>(setup.policy, kyoku, "plain");
        return s;
      },
      [&](PlayedGame g) {
        logs[g.index] = g.result.events;
        if (notes != nullptr) (*notes)[g.index] = g.searches;
      });
  return logs;
}

// Eight games (four in the sanitizer builds) in the tests that compare one and two threads.
constexpr std::size_t kThreadGames = static_cast<std::size_t>(hydra::testing::sized(8, 4));
constexpr long kThreadSearched = 20 * static_cast<long>(kThreadGames) / 8;  // seat 0's searches, at least

TEST(Search, TheSameGamesAtOneAndTwoThreadsAndForOneSeed) {
  SearchSetup one;
  const auto a = play_searching(one, 1, kThreadGames);
  EXPECT_GT(one.counters->searched.load(), kThreadSearched);
  EXPECT_EQ(one.counters->play_outs.load(), 2 * 2 * one.counters->searched.load());  // candidates x walls
  EXPECT_GT(one.counters->changed.load(), 0);  // the search plays something other than the argmax
  SearchSetup two;
  const auto b = play_searching(two, 2, kThreadGames);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t g = 0; g < a.size(); ++g) {
    ASSERT_FALSE(a[g].empty());
    EXPECT_TRUE(a[g] == b[g]) << "game " << g;
  }
  EXPECT_EQ(one.counters->searched.load(), two.counters->searched.load());
  EXPECT_EQ(one.counters->play_out_decisions.load(), two.counters->play_out_decisions.load());
}

// Every search of the game is noted on the action it chose (the log's "meta", which `hydra
// selfplay` writes and pretraining reads): one note per searched decision (calls off: no search
// answers with a pass), on the searching seat's own action, the action played being the candidate
// of highest value where it beats the argmax's (sigmas 0, margin 0) and the argmax elsewhere; the
// notes survive the mjai text and put each candidate's value on its sample.
TEST(Search, EverySearchIsNotedOnTheActionItChose) {
  SearchSetup setup;
  setup.options.calls = false;
  setup.options.candidates = 3;
  std::vector<std::vector<data::SearchNote>> notes(4);
  const auto logs = play_searching(setup, 1, 4, &notes);
  std::int64_t noted = 0, changed = 0;
  for (std::size_t g = 0; g < logs.size(); ++g) {
    data::GameLog log;
    log.events = logs[g];
    log.searches = notes[g];
    for (const data::SearchNote& n : notes[g]) {
      ASSERT_LT(n.event, logs[g].size());
      EXPECT_EQ(logs[g][n.event].actor, game::Seat(0));
      EXPECT_TRUE(data::is_seat_action(logs[g][n.event].type));
      EXPECT_EQ(n.deals, 2);
      ASSERT_GE(n.actions.size(), 2U);
      ASSERT_EQ(n.values.size(), n.actions.size());
    }
    const data::GameLog back = data::parse_mjai_text(data::to_mjai_text(log), "game");
    ASSERT_EQ(back.searches.size(), notes[g].size());
    for (std::size_t k = 0; k < notes[g].size(); ++k) {
      EXPECT_EQ(back.searches[k].event, notes[g][k].event);
      EXPECT_EQ(back.searches[k].actions, notes[g][k].actions);
      EXPECT_EQ(back.searches[k].values, notes[g][k].values);
    }
    data::SampleBatch samples;
    data::ExtractStats stats;
    data::extract_samples(back, "game", samples, game::table_rules("tenhou-kyoku"), &stats);
    std::size_t next = 0;
    for (std::size_t row = 0; row < samples.size(); ++row) {
      const int event = stats.sample_event[row];
      const bool searched = std::any_of(samples.searched.begin() + static_cast<std::ptrdiff_t>(row * 46),
                                        samples.searched.begin() + static_cast<std::ptrdiff_t>((row + 1) * 46),
                                        [](std::uint8_t b) { return b != 0; });
      if (next < notes[g].size() && event == static_cast<int>(notes[g][next].event) && stats.sample_seat[row] == 0) {
        const data::SearchNote& n = notes[g][next++];
        ASSERT_TRUE(searched);
        std::size_t best = 0;
        for (std::size_t k = 1; k < n.values.size(); ++k)
          if (n.values[k] > n.values[0] && n.values[k] > n.values[best]) best = k;
        EXPECT_EQ(samples.action[row], n.actions[best]) << "game " << g << " event " << event;
        if (best != 0) ++changed;
        for (std::size_t k = 0; k < n.actions.size(); ++k) {
          EXPECT_EQ(samples.searched[row * 46 + ix(n.actions[k])], 1);
          EXPECT_EQ(samples.search_value[row * 46 + ix(n.actions[k])], n.values[k]);
        }
        ++noted;
      } else {
        EXPECT_FALSE(searched) << "game " << g << " row " << row;
      }
    }
    EXPECT_EQ(next, notes[g].size());
  }
  EXPECT_EQ(noted, setup.counters->searched.load());
  EXPECT_EQ(changed, setup.counters->changed.load());
  EXPECT_GT(noted, 10);
  EXPECT_GT(changed, 0);

  // Written to files and streamed by the pretraining dataset under suit permutations: every note
  // reaches its sample, its candidates legal and holding the logged action, however permuted.
  const auto dir = std::filesystem::temp_directory_path() /
                   ("hydra_test_search_notes_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir);
  for (std::size_t k = 0; k < logs.size(); ++k) {
    data::GameLog log;
    log.events = logs[k];
    log.searches = notes[k];
    data::write_mjai(dir / ("game_" + std::to_string(k) + ".json.gz"), log);
  }
  data::DatasetOptions opt;
  opt.inputs = {dir.string()};
  opt.val_fraction = 0;
  opt.repeat = false;
  opt.rules = "tenhou-kyoku";
  opt.seed = game::MasterSeed{5};
  data::Dataset dataset(opt);
  data::SampleBatch batch;
  std::int64_t streamed = 0;
  while (dataset.next(batch, 64) > 0) {
    for (std::size_t row = 0; row < batch.size(); ++row) {
      bool any = false;
      for (int a = 0; a < 46; ++a) {
        if (batch.searched[row * 46 + ix(a)] == 0) continue;
        any = true;
        EXPECT_EQ(batch.legal[row * 46 + ix(a)], 1);
      }
      if (!any) continue;
      ++streamed;
      EXPECT_EQ(batch.searched[row * 46 + static_cast<std::size_t>(batch.action[row])], 1);
    }
  }
  std::filesystem::remove_all(dir);
  EXPECT_EQ(streamed, noted);

  // A note that does not fit its game is refused with the event's position.
  const auto error_of = [&](std::size_t g, const std::function<void(data::SearchNote&)>& spoil) -> std::string {
    data::GameLog log;
    log.events = logs[g];
    log.searches = notes[g];
    spoil(log.searches.front());
    data::SampleBatch samples;
    try {
      data::extract_samples(log, "spoiled", samples, game::table_rules("tenhou-kyoku"));
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  };
  std::size_t g = 0;
  while (g < notes.size() && notes[g].empty()) ++g;
  ASSERT_LT(g, notes.size());
  const std::size_t at = notes[g].front().event;
  const std::string played = error_of(g, [](data::SearchNote& n) { n.actions.erase(n.actions.begin()); n.values.pop_back(); n.actions.push_back(45); n.values.push_back(0); });
  EXPECT_NE(played.find("spoiled:" + std::to_string(at + 1) + ": a search note"), std::string::npos) << played;
  const std::string moved = error_of(g, [](data::SearchNote& n) { n.event = 0; });  // start_game
  EXPECT_NE(moved.find("spoiled:1: a search note on an event that is not a seat's decision"), std::string::npos) << moved;
}

// depth: play-outs cut at the seat's decision and scored by the continuation's value there. The
// same games at one and two threads, far fewer play-out decisions than play-outs to the end, and
// choices of their own.
TEST(Search, CutPlayOutsGiveTheSameGamesAtOneAndTwoThreadsForFewerDecisions) {
  SearchSetup full;
  const auto f = play_searching(full, 1, kThreadGames);
  SearchSetup one;
  one.options.depth = 6;
  const auto a = play_searching(one, 1, kThreadGames);
  SearchSetup two;
  two.options.depth = 6;
  const auto b = play_searching(two, 2, kThreadGames);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t g = 0; g < a.size(); ++g) EXPECT_TRUE(a[g] == b[g]) << "game " << g;
  EXPECT_EQ(one.counters->play_out_decisions.load(), two.counters->play_out_decisions.load());
  EXPECT_GT(one.counters->searched.load(), kThreadSearched);
  EXPECT_GT(one.counters->changed.load(), 0);
  const auto per_play_out = [](const SearchSetup& s) {
    return static_cast<double>(s.counters->play_out_decisions.load()) / static_cast<double>(s.counters->play_outs.load());
  };
  EXPECT_LT(per_play_out(one), 0.5 * per_play_out(full));
  EXPECT_GE(per_play_out(one), 6.0 * 0.5);  // most play-outs run their six decisions before the cut
  EXPECT_NE(a, f);  // the values of the cut play-outs choose otherwise somewhere
}

// continuation=greedy, tail=greedy (the network's first decisions, then the greedy bot's),
// others=greedy (the network in the searching seat, the greedy bot in the others) and others=CKPT3
// (another network in the others): the same games at one and two threads, and each plays games of
// its own.
TEST(Search, GreedyContinuationsGiveTheSameGamesAtOneAndTwoThreads) {
  constexpr std::size_t kGames = kThreadGames / 2;
  SearchSetup network;
  const auto f = play_searching(network, 1, kGames);
  const auto greedy = [](SearchSetup& s) { s.options.continuation = std::string(kGreedyContinuation); };
  const auto tail = [](SearchSetup& s) {
    s.options.depth = 4;
    s.options.greedy_tail = true;
  };
  const auto others = [](SearchSetup& s) { s.options.others = std::string(kGreedyContinuation); };
  const auto network_others = [](SearchSetup& s) { s.options.others = "others.ckpt"; };
  for (const auto& set : {std::function<void(SearchSetup&)>(greedy), std::function<void(SearchSetup&)>(tail),
                          std::function<void(SearchSetup&)>(others), std::function<void(SearchSetup&)>(network_others)}) {
    SearchSetup one, two;
    set(one);
    set(two);
    const auto a = play_searching(one, 1, kGames);
    const auto b = play_searching(two, 2, kGames);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t g = 0; g < a.size(); ++g) EXPECT_TRUE(a[g] == b[g]) << "game " << g;
    EXPECT_EQ(one.counters->play_out_decisions.load(), two.counters->play_out_decisions.load());
    EXPECT_GT(one.counters->searched.load(), kThreadSearched / 2);
    EXPECT_EQ(one.counters->play_outs.load(), 2 * 2 * one.counters->searched.load());  // candidates x walls
    EXPECT_GT(one.counters->changed.load(), 0);
    EXPECT_NE(a, f);  // the greedy bot's kyoku value the candidates otherwise somewhere
    EXPECT_EQ(one.others->rows() > 0, one.options.network_others());  // its network plays the others
  }
}

// The same games with seat 0's searches asked through act(), as hydra bot asks them: no engine
// table, and every agent fed the events as an mjai host sends them (the others' deals and draws
// hidden), from which the search rebuilds the kyoku's table (game/rebuild.hpp).
std::vector<std::vector<game::Event>> play_searching_alone(SearchSetup& setup, std::size_t games = 8) {
  const game::TableRules& kyoku = game::table_rules("tenhou-kyoku");
  setup.table_rules = &kyoku;
  std::vector<std::vector<game::Event>> logs;
  for (std::uint64_t i = 0; i < games; ++i) {
    const game::GameKey key = game::game_key(game::MasterSeed{31}, i);
    std::array<std::unique_ptr<game::Agent>, game::kNumSeats> agents;
    agents[0] = setup.agent();
    for (int k = 1; k < 4; ++k) agents[ix(k)] = std::make_unique<ModelAgent>(setup.policy, kyoku, "plain");
    for (int k = 0; k < 4; ++k) agents[ix(k)]->start_game(game::Seat(k), key);
    game::Table t(kyoku, key, true);
    std::array<std::size_t, game::kNumSeats> fed{};
    while (!t.done()) {
      for (const game::Decision& d : game::FixedVec<game::Decision, game::kNumSeats>(t.pending())) {
        for (int k = 0; k < 4; ++k) {
          auto* observer = dynamic_cast<ObservingAgent*>(agents[ix(k)].get());
          for (; fed[ix(k)] < t.events().size(); ++fed[ix(k)]) {
            game::Event e = t.events()[fed[ix(k)]];
            if (e.type == game::EventType::tsumo && e.actor != game::Seat(k)) e.pai = game::Pai::unknown();
            if (e.type == game::EventType::start_kyoku)
              for (int o = 0; o < 4; ++o)
                if (o != k)
                  for (game::Pai& p : e.tehais[ix(o)]) p = game::Pai::unknown();
            if (observer) observer->observe(e);
          }
        }
        t.act(d.seat, agents[ix(d.seat.index())]->act(t.view(d.seat), d));
      }
    }
    logs.push_back(t.events());
  }
  return logs;
}

TEST(Search, WithoutTheEnginesTableItRebuildsOneAndPlaysTheSameGames) {
  SearchSetup engine;
  const auto a = play_searching(engine, 1);
  SearchSetup alone;
  const auto b = play_searching_alone(alone);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t g = 0; g < a.size(); ++g) EXPECT_TRUE(a[g] == b[g]) << "game " << g;
  EXPECT_GT(alone.counters->searched.load(), 20);
  EXPECT_EQ(alone.counters->searched.load(), engine.counters->searched.load());
  EXPECT_EQ(alone.counters->changed.load(), engine.counters->changed.load());
  EXPECT_EQ(alone.counters->play_out_decisions.load(), engine.counters->play_out_decisions.load());
}

// Two runs' search notes, game by game: the same decisions noted with the same candidates,
// values and deals.
void expect_same_notes(const std::vector<std::vector<data::SearchNote>>& a,
                       const std::vector<std::vector<data::SearchNote>>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t g = 0; g < a.size(); ++g) {
    ASSERT_EQ(a[g].size(), b[g].size()) << "game " << g;
    for (std::size_t k = 0; k < a[g].size(); ++k) {
      EXPECT_EQ(a[g][k].event, b[g][k].event) << "game " << g << " note " << k;
      EXPECT_EQ(a[g][k].actions, b[g][k].actions) << "game " << g << " note " << k;
      EXPECT_EQ(a[g][k].values, b[g][k].values) << "game " << g << " note " << k;
      EXPECT_EQ(a[g][k].deals, b[g][k].deals) << "game " << g << " note " << k;
    }
  }
}

// A time budget that never binds plays every deal: the same games as without one, whether the
// search runs at once in the engine's game (eval and selfplay under a budget) or through act()
// (hydra bot), and in selfplay the same search notes.
TEST(Search, ATimeBudgetThatDoesNotBindChangesNothing) {
  SearchSetup plain;
  std::vector<std::vector<data::SearchNote>> plain_notes(3), timed_notes(3);
  const auto a = play_searching(plain, 1, 3, &plain_notes);
  SearchSetup timed;
  timed.options.time = 1e6;
  const auto b = play_searching(timed, 2, 3, &timed_notes);
  expect_same_notes(timed_notes, plain_notes);
  const auto noted = std::accumulate(timed_notes.begin(), timed_notes.end(), std::int64_t{0},
                                     [](std::int64_t n, const auto& v) { return n + static_cast<std::int64_t>(v.size()); });
  EXPECT_GT(noted, 5);
  EXPECT_LE(noted, plain.counters->searched.load());  // a search that ends in a pass has no note
  SearchSetup alone;
  alone.options.time = 1e6;
  const auto c = play_searching_alone(alone, 3);
  ASSERT_EQ(a.size(), b.size());
  ASSERT_EQ(a.size(), c.size());
  for (std::size_t g = 0; g < a.size(); ++g) {
    EXPECT_TRUE(a[g] == b[g]) << "game " << g;
    EXPECT_TRUE(a[g] == c[g]) << "game " << g;
  }
  EXPECT_GT(plain.counters->searched.load(), 5);
  for (const SearchSetup* s : {&timed, &alone}) {
    EXPECT_EQ(s->counters->searched.load(), plain.counters->searched.load());
    EXPECT_EQ(s->counters->changed.load(), plain.counters->changed.load());
    EXPECT_EQ(s->counters->play_outs.load(), plain.counters->play_outs.load());
    EXPECT_EQ(s->counters->play_out_decisions.load(), plain.counters->play_out_decisions.load());
    EXPECT_GT(s->counters->longest_us.load(), 0);  // searched at once: the slowest wait is known
  }
  EXPECT_EQ(plain.counters->longest_us.load(), 0);  // batched in the engine: no one search's wait
}

// A budget too short for a second round plays the first round's deals, ceil(8 / 4) = 2 of 8:
// the deals of a search of 2 walls, so its games and notes, in the engine's game and through act().
TEST(Search, ATimeBudgetTooShortForASecondRoundPlaysTheFirstRoundsDeals) {
  SearchSetup two;  // walls = 2, no budget
  std::vector<std::vector<data::SearchNote>> two_notes(3), timed_notes(3);
  const auto a = play_searching(two, 1, 3, &two_notes);
  SearchSetup timed;
  timed.options.walls = 8;
  timed.options.time = 1e-9;
  const auto b = play_searching(timed, 1, 3, &timed_notes);
  expect_same_notes(timed_notes, two_notes);  // the notes say 2 deals, the ones played
  SearchSetup alone;
  alone.options.walls = 8;
  alone.options.time = 1e-9;
  const auto c = play_searching_alone(alone, 3);
  EXPECT_GT(two.counters->searched.load(), 5);
  for (std::size_t g = 0; g < a.size(); ++g) {
    EXPECT_TRUE(a[g] == b[g]) << "game " << g;
    EXPECT_TRUE(a[g] == c[g]) << "game " << g;
  }
  for (const SearchSetup* s : {&timed, &alone}) {
    EXPECT_EQ(s->counters->searched.load(), two.counters->searched.load());
    EXPECT_EQ(s->counters->changed.load(), two.counters->changed.load());
    EXPECT_EQ(s->counters->play_outs.load(), 2 * 2 * two.counters->searched.load());  // candidates x walls
    EXPECT_EQ(s->counters->play_out_decisions.load(), two.counters->play_out_decisions.load());
  }
}

// more=N, a staged search: after its first deals it plays N more only where a candidate is on
// course for the gate. Where it does, it is the search of walls + N deals to the bit (values and
// choice); where it does not, it is the search of the first deals, and that search plays the
// argmax (a candidate passing the full gate on the first deals is on course for it).
TEST(Search, AStagedSearchIsTheSearchOfAllItsDealsWhereItGoesOn) {
  SearchSetup staged, first, all;
  for (SearchSetup* s : {&staged, &first, &all}) {
    s->options.continuation = std::string(kGreedyContinuation);
    s->options.sigmas = 1;
    s->options.candidates = 3;
  }
  staged.options.more = 6;
  all.options.walls = 8;
  int extended = 0, kept = 0;
  const game::GameKey key = game::game_key(game::MasterSeed{27}, 0);
  game::Table t(rules(), key, true);
  play_greedy(t, key, [&](game::Table& table, const game::Decision& d, int n) {
    if (n % 3 != 0 || table.pending().size() != 1 || d.mask.count() < 2 || (extended >= 6 && kept >= 6)) return;
    std::vector<game::Action> cands;
    for (int a = 0; a < game::kNumActions && cands.size() < 3; ++a)
      if (d.mask.test(game::Action(a))) cands.emplace_back(a);
    const auto search = [&](const SearchSetup& setup, Search** out, std::unique_ptr<SearchAgent>& agent) {
      agent = setup.agent();
      agent->start_game(d.seat, key);
      for (const game::Event& e : table.events()) agent->observe(e);
      auto* made = new Search(table, d.seat, *agent, cands, 5);
      Games games(made->take_games());
      Engine engine(EngineOptions{});
      engine.run(games);
      EXPECT_TRUE(made->done());
      *out = made;
    };
    std::unique_ptr<SearchAgent> a1, a2, a3;
    Search *s1 = nullptr, *s2 = nullptr, *s3 = nullptr;
    search(staged, &s1, a1);
    search(first, &s2, a2);
    search(all, &s3, a3);
    const std::unique_ptr<Search> own1(s1), own2(s2), own3(s3);
    EXPECT_EQ(s1->values(), s2->values()) << "decision " << n;  // the first deals are the first search's
    if (s1->extend()) {
      EXPECT_EQ(s1->walls(), 8);
      EXPECT_FALSE(s1->done());
      Games more(s1->take_walls(2, 8));
      Engine engine(EngineOptions{});
      engine.run(more);
      ASSERT_TRUE(s1->done());
      EXPECT_EQ(s1->values(), s3->values()) << "decision " << n;
      EXPECT_EQ(s1->best(), s3->best()) << "decision " << n;
      EXPECT_FALSE(s1->extend());  // once
      ++extended;
    } else {
      EXPECT_EQ(s1->walls(), 2);
      EXPECT_EQ(s1->best(), cands.front()) << "decision " << n;
      EXPECT_EQ(s2->best(), cands.front()) << "decision " << n;
      ++kept;
    }
  });
  EXPECT_GE(extended, 6);
  EXPECT_GE(kept, 6);
}

// stages=S: each extension multiplies the deals by (walls + more) / walls, and the search that
// has gone on to a stage is the search of all that stage's deals to the bit (2, 4, 8 deals here).
TEST(Search, EveryStageIsTheSearchOfAllItsDeals) {
  std::array<SearchSetup, 4> s;  // staged; the plain searches of 2, 4 and 8 deals
  for (SearchSetup& x : s) {
    x.options.continuation = std::string(kGreedyContinuation);
    x.options.sigmas = 0.5;
    x.options.candidates = 3;
  }
  s[0].options.more = 2;
  s[0].options.stages = 2;
  s[2].options.walls = 4;
  s[3].options.walls = 8;
  EXPECT_EQ(Search::total_walls(s[0].options), 8);
  std::array<int, 3> reached{};  // decisions whose search stopped after 2, 4 and 8 deals
  const game::GameKey key = game::game_key(game::MasterSeed{31}, 0);
  game::Table t(rules(), key, true);
  play_greedy(t, key, [&](game::Table& table, const game::Decision& d, int n) {
    if (n % 3 != 0 || table.pending().size() != 1 || d.mask.count() < 2 || std::ranges::min(reached) >= 4) return;
    std::vector<game::Action> cands;
    for (int a = 0; a < game::kNumActions && cands.size() < 3; ++a)
      if (d.mask.test(game::Action(a))) cands.emplace_back(a);
    std::array<std::unique_ptr<SearchAgent>, 4> agents;
    std::array<std::unique_ptr<Search>, 4> searches;
    for (std::size_t i = 0; i < s.size(); ++i) {
      agents[i] = s[i].agent();
      agents[i]->start_game(d.seat, key);
      for (const game::Event& e : table.events()) agents[i]->observe(e);
      searches[i] = std::make_unique<Search>(table, d.seat, *agents[i], cands, 5);
      Games games(searches[i]->take_games());
      Engine engine(EngineOptions{});
      engine.run(games);
      ASSERT_TRUE(searches[i]->done());
    }
    Search& staged = *searches[0];
    std::size_t stage = 0;
    EXPECT_EQ(staged.values(), searches[1]->values()) << "decision " << n;
    for (int before = staged.walls(); staged.extend(); before = staged.walls()) {
      ++stage;
      ASSERT_LE(stage, 2U) << "decision " << n;
      EXPECT_EQ(staged.walls(), 2 << stage);
      EXPECT_FALSE(staged.done());
      Games more(staged.take_walls(before, staged.walls()));
      Engine engine(EngineOptions{});
      engine.run(more);
      ASSERT_TRUE(staged.done());
      EXPECT_EQ(staged.values(), searches[stage + 1]->values()) << "decision " << n << ", stage " << stage;
    }
    if (stage == 2) {
      EXPECT_EQ(staged.best(), searches[3]->best()) << "decision " << n;
    }
    ++reached[stage];
  });
  EXPECT_GE(reached[0], 4);
  EXPECT_GE(reached[1], 4);
  EXPECT_GE(reached[2], 4);
}

// The staged search in games, three stages: the same games at one and two threads and through
// act() (hydra bot's path), its further deals counted, and games of its own.
TEST(Search, StagedSearchesGiveTheSameGamesAtOneAndTwoThreadsAndAlone) {
  constexpr std::size_t kGames = static_cast<std::size_t>(hydra::testing::sized(3, 2));
  SearchSetup plain;
  const auto f = play_searching(plain, 1, kGames);
  SearchSetup one, two, alone;
  for (SearchSetup* s : {&one, &two, &alone}) {
    s->options.sigmas = 1;
    s->options.more = 4;
    s->options.stages = 2;  // 2, 6 and 18 deals
  }
  const auto a = play_searching(one, 1, kGames);
  const auto b = play_searching(two, 2, kGames);
  const auto c = play_searching_alone(alone, kGames);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t g = 0; g < a.size(); ++g) {
    EXPECT_TRUE(a[g] == b[g]) << "game " << g;
    EXPECT_TRUE(a[g] == c[g]) << "game " << g;
  }
  const auto searched = one.counters->searched.load(), extended = one.counters->extended.load();
  EXPECT_GT(searched, static_cast<long>(10 * kGames / 3));
  EXPECT_GT(extended, 0);
  EXPECT_LT(extended, searched);
  const auto deals = one.counters->deals.load();
  EXPECT_EQ(one.counters->play_outs.load(), 2 * deals);                // candidates x deals
  EXPECT_GT(deals, 2 * searched + 4 * extended);                      // some went on to the third stage
  EXPECT_LE(deals, 2 * searched + 16 * extended);
  for (const SearchSetup* s : {&two, &alone}) {
    EXPECT_EQ(s->counters->extended.load(), extended);
    EXPECT_EQ(s->counters->deals.load(), deals);
    EXPECT_EQ(s->counters->play_out_decisions.load(), one.counters->play_out_decisions.load());
  }
  EXPECT_EQ(plain.counters->extended.load(), 0);
  EXPECT_NE(a, f);
}

// A staged search under a budget: one that never binds plays every stage it would play without
// it (the same games and deals in the engine's game and through act()); one too short for any
// further stage plays the first stage's deals alone, the search of those walls.
TEST(Search, ATimeBudgetDecidesOnlyWhetherAStagedSearchGoesOn) {
  constexpr std::size_t kGames = 2;
  SearchSetup plain, staged, loose, alone, tight, first;
  for (SearchSetup* s : {&plain, &staged, &loose, &alone, &tight, &first}) s->options.sigmas = 1;
  for (SearchSetup* s : {&staged, &loose, &alone, &tight}) {
    s->options.more = 4;
    s->options.stages = 2;  // 2, 6 and 18 deals
  }
  loose.options.time = alone.options.time = 1e6;
  tight.options.time = 1e-9;
  const auto a = play_searching(staged, 2, kGames);
  const auto b = play_searching(loose, 2, kGames);
  const auto c = play_searching_alone(alone, kGames);
  const auto f = play_searching(first, 2, kGames);  // walls = 2, no stages, no budget
  const auto t = play_searching(tight, 2, kGames);
  ASSERT_EQ(a.size(), kGames);
  for (std::size_t g = 0; g < kGames; ++g) {
    EXPECT_TRUE(a[g] == b[g]) << "game " << g;
    EXPECT_TRUE(a[g] == c[g]) << "game " << g;
    EXPECT_TRUE(f[g] == t[g]) << "game " << g;
  }
  EXPECT_GT(staged.counters->extended.load(), 0);
  for (const SearchSetup* s : {&loose, &alone}) {
    EXPECT_EQ(s->counters->searched.load(), staged.counters->searched.load());
    EXPECT_EQ(s->counters->extended.load(), staged.counters->extended.load());
    EXPECT_EQ(s->counters->deals.load(), staged.counters->deals.load());
    EXPECT_EQ(s->counters->play_out_decisions.load(), staged.counters->play_out_decisions.load());
    EXPECT_GT(s->counters->longest_us.load(), 0);
  }
  EXPECT_EQ(tight.counters->extended.load(), 0);
  EXPECT_EQ(tight.counters->searched.load(), first.counters->searched.load());
  EXPECT_EQ(tight.counters->deals.load(), 2 * first.counters->searched.load());
  EXPECT_EQ(tight.counters->play_out_decisions.load(), first.counters->play_out_decisions.load());
}

TEST(Search, NamesAndOptionsAreCheckedWithClearErrors) {
  const SearchName s = parse_search_name("search:m.ckpt:walls=16:threshold=0.2:candidates=2:temperature=0.5:margin=0.1:sigmas=2");
  EXPECT_EQ(s.checkpoint, "m.ckpt");
  EXPECT_EQ(s.options.walls, 16);
  EXPECT_DOUBLE_EQ(s.options.threshold, 0.2);
  EXPECT_EQ(s.options.candidates, 2);
  EXPECT_DOUBLE_EQ(s.options.temperature, 0.5);
  EXPECT_DOUBLE_EQ(s.options.margin, 0.1);
  EXPECT_DOUBLE_EQ(s.options.sigmas, 2.0);
  EXPECT_EQ(parse_search_name("search:a.ckpt:continuation=b.ckpt").options.continuation, "b.ckpt");
  EXPECT_EQ(parse_search_name("search:a.ckpt:grp=g.ckpt").options.grp, "g.ckpt");
  EXPECT_DOUBLE_EQ(parse_search_name("search:a.ckpt:time=0.5").options.time, 0.5);
  EXPECT_DOUBLE_EQ(parse_search_name("search:a.ckpt").options.time, 0.0);
  EXPECT_EQ(parse_search_name("search:a.ckpt:walls=32:more=96").options.more, 96);
  const SearchOptions staged = parse_search_name("search:a.ckpt:walls=32:more=96:stages=3").options;
  EXPECT_EQ(staged.stages, 3);
  EXPECT_EQ(Search::total_walls(staged), 2048);  // 32, 128, 512, 2048
  EXPECT_EQ(Search::total_walls(parse_search_name("search:a.ckpt:walls=8:more=4:stages=3").options), 27);  // 8, 12, 18, 27
  EXPECT_EQ(parse_search_name("search:a.ckpt").options.more, 0);
  const auto message = [](const std::string& name) {
    try {
      (void)parse_search_name(name);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("search:").find("needs a checkpoint"), std::string::npos);
  EXPECT_NE(message("search:m.ckpt:walls=0").find("walls"), std::string::npos);
  EXPECT_NE(message("search:m.ckpt:walls=2.5").find("whole number"), std::string::npos);
  EXPECT_NE(message("search:m.ckpt:speed=3").find("unknown option 'speed'"), std::string::npos);
  EXPECT_EQ(parse_search_name("search:m.ckpt:depth=12").options.depth, 12);
  EXPECT_EQ(parse_search_name("search:m.ckpt").options.depth, 0);
  EXPECT_NE(message("search:m.ckpt:depth=0").find("depth must be a whole number"), std::string::npos);
  EXPECT_NE(message("search:m.ckpt:depth=4:grp=g.ckpt").find("depth and grp do not go together"), std::string::npos);
  EXPECT_NE(message("search:m.ckpt:walls").find("KEY=VALUE"), std::string::npos);
  EXPECT_NE(message("search:m.ckpt:threshold=2").find("threshold"), std::string::npos);
  EXPECT_NE(message("search:m.ckpt:grp=").find("grp needs a GRP checkpoint"), std::string::npos);
  EXPECT_NE(message("search:m.ckpt:time=0").find("time must be > 0"), std::string::npos);
  EXPECT_NE(message("search:m.ckpt:time=soon").find("time needs a number"), std::string::npos);
  EXPECT_NE(message("search:m.ckpt:calls=no").find("calls must be 0 or 1, got 'no'"), std::string::npos);
  EXPECT_NE(message("search:m.ckpt:more=0").find("option more must be a whole number in [1, 4096]"), std::string::npos);
  const SearchOptions timed = parse_search_name("search:m.ckpt:more=8:stages=2:time=0.5").options;
  EXPECT_EQ(timed.more, 8);
  EXPECT_EQ(timed.time, 0.5);
  EXPECT_NE(message("search:m.ckpt:stages=2").find("option stages needs more=N"), std::string::npos);
  EXPECT_NE(message("search:m.ckpt:more=8:stages=9").find("option stages must be a whole number in [1, 8]"), std::string::npos);
  EXPECT_NE(message("search:m.ckpt:walls=64:more=4096:stages=2").find("more than 65536 deals"), std::string::npos);
  EXPECT_TRUE(parse_search_name("search:m.ckpt:continuation=greedy:walls=64").options.greedy());
  EXPECT_FALSE(parse_search_name("search:m.ckpt:continuation=b.ckpt").options.greedy());
  const SearchOptions tail = parse_search_name("search:m.ckpt:depth=8:tail=greedy:grp=g.ckpt").options;
  EXPECT_TRUE(tail.greedy_tail);
  EXPECT_FALSE(tail.play_out_agent(nullptr).cut());  // played to the kyoku's end, so grp goes with it
  EXPECT_TRUE(parse_search_name("search:m.ckpt:depth=8").options.play_out_agent(nullptr).cut());
  EXPECT_NE(message("search:m.ckpt:continuation=bot:greedy").find("written continuation=greedy"), std::string::npos);
  EXPECT_NE(message("search:m.ckpt:continuation=greedy:depth=4").find("no value head to cut at"), std::string::npos);
  EXPECT_NE(message("search:m.ckpt:continuation=greedy:temperature=1").find("no temperature"), std::string::npos);
  EXPECT_NE(message("search:m.ckpt:tail=greedy").find("tail=greedy needs depth=N"), std::string::npos);
  EXPECT_NE(message("search:m.ckpt:depth=4:tail=random").find("tail must be greedy"), std::string::npos);
  const PlayOutAgentSpec others = parse_search_name("search:m.ckpt:others=greedy:grp=g.ckpt").options.play_out_agent(nullptr);
  EXPECT_TRUE(others.greedy_others);
  EXPECT_FALSE(others.greedy_tail);
  EXPECT_NE(message("search:m.ckpt:others=bot").find("others needs greedy"), std::string::npos);
  EXPECT_NE(message("search:m.ckpt:others=").find("others needs greedy"), std::string::npos);
  const SearchOptions small = parse_search_name("search:m.ckpt:others=small.ckpt").options;
  EXPECT_TRUE(small.network_others());
  EXPECT_FALSE(small.greedy_others());
  LinearTestPolicy seat(1), opponents(2);
  EXPECT_EQ(small.play_out_agent(&seat, &opponents).others, &opponents);
  EXPECT_EQ(parse_search_name("search:m.ckpt:others=greedy").options.play_out_agent(&seat, &opponents).others, nullptr);
  EXPECT_NE(message("search:m.ckpt:continuation=greedy:others=greedy").find("no others"), std::string::npos);
}

TEST(Search, CandidatesAreTheLikelyActionsMostLikelyFirst) {
  std::vector<float> probs(game::kNumActions, 0.0f);
  game::ActionMask legal;
  for (int a : {0, 3, 5, 9}) legal.set(game::Action(a));
  probs[0] = 0.1f;
  probs[3] = 0.5f;
  probs[5] = 0.35f;
  probs[9] = 0.05f;
  SearchOptions o;
  o.threshold = 0.1;
  o.candidates = 4;
  const game::Decision turn{game::Seat(0), game::Phase::turn, legal};
  EXPECT_EQ(search_candidates(probs.data(), turn, o),
            (std::vector<game::Action>{game::Action(3), game::Action(5), game::Action(0)}));
  o.candidates = 2;
  EXPECT_EQ(search_candidates(probs.data(), turn, o), (std::vector<game::Action>{game::Action(3), game::Action(5)}));
  o.threshold = 0.9;  // the argmax alone: no search
  EXPECT_EQ(search_candidates(probs.data(), turn, o), (std::vector<game::Action>{game::Action(3)}));
}

// calls=0: a decision on another seat's discard or kan keeps its argmax (no search); the seat's
// own turn and riichi discard are searched as before.
TEST(Search, WithoutCallsOnlyTheSeatsOwnTurnsAreSearched) {
  std::vector<float> probs(game::kNumActions, 0.0f);
  game::ActionMask legal;
  for (int a : {1, 2}) legal.set(game::Action(a));
  probs[1] = 0.4f;
  probs[2] = 0.6f;
  SearchOptions o = parse_search_name("search:x.ckpt:calls=0").options;
  EXPECT_FALSE(o.calls);
  const std::vector<game::Action> both{game::Action(2), game::Action(1)}, argmax{game::Action(2)};
  for (const game::Phase p : {game::Phase::turn, game::Phase::riichi_discard, game::Phase::kan_select})
    EXPECT_EQ(search_candidates(probs.data(), game::Decision{game::Seat(1), p, legal}, o), both) << game::to_string(p);
  for (const game::Phase p : {game::Phase::response, game::Phase::chankan}) {
    EXPECT_EQ(search_candidates(probs.data(), game::Decision{game::Seat(1), p, legal}, o), argmax) << game::to_string(p);
    o.calls = true;
    EXPECT_EQ(search_candidates(probs.data(), game::Decision{game::Seat(1), p, legal}, o), both) << game::to_string(p);
    o.calls = false;
  }
  EXPECT_TRUE(parse_search_name("search:x.ckpt:calls=1").options.calls);
  EXPECT_TRUE(parse_search_name("search:x.ckpt").options.calls);
}

// riichi=0: a turn that may declare riichi keeps the argmax's choice to declare or not. Declaring
// is played as it is; not declaring searches the likely discards without the declaration, which
// the next candidate would otherwise have been.
TEST(Search, WithoutRiichiTheDeclarationIsTheArgmaxs) {
  std::vector<float> probs(game::kNumActions, 0.0f);
  game::ActionMask legal;
  const game::Action riichi(game::Action::kRiichi);
  for (int a : {1, 2, 3}) legal.set(game::Action(a));
  legal.set(riichi);
  probs[1] = 0.3f;
  probs[2] = 0.15f;
  probs[3] = 0.05f;
  probs[riichi.index()] = 0.5f;
  SearchOptions o = parse_search_name("search:x.ckpt:riichi=0").options;
  EXPECT_FALSE(o.riichi);
  const game::Decision turn{game::Seat(0), game::Phase::turn, legal};
  EXPECT_EQ(search_candidates(probs.data(), turn, o), std::vector<game::Action>{riichi});
  o.riichi = true;
  EXPECT_EQ(search_candidates(probs.data(), turn, o), (std::vector<game::Action>{riichi, game::Action(1), game::Action(2)}));
  probs[riichi.index()] = 0.25f;  // the argmax is now a dama discard
  probs[1] = 0.55f;
  EXPECT_EQ(search_candidates(probs.data(), turn, o), (std::vector<game::Action>{game::Action(1), riichi, game::Action(2)}));
  o.riichi = false;
  EXPECT_EQ(search_candidates(probs.data(), turn, o), (std::vector<game::Action>{game::Action(1), game::Action(2)}));
  game::ActionMask no_riichi = legal;
  no_riichi.reset(riichi);  // a turn without the option is searched alike either way
  probs[riichi.index()] = 0;
  EXPECT_EQ(search_candidates(probs.data(), game::Decision{game::Seat(0), game::Phase::turn, no_riichi}, o),
            (std::vector<game::Action>{game::Action(1), game::Action(2)}));
  EXPECT_NE([] {
    try {
      parse_search_name("search:m.ckpt:riichi=yes");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  }().find("riichi must be 0 or 1, got 'yes'"), std::string::npos);
  EXPECT_TRUE(parse_search_name("search:x.ckpt").options.riichi);
}

TEST(SearchName, Bf16IsZeroOrOneAndOffByDefault) {
  EXPECT_FALSE(parse_search_name("search:x.ckpt").options.bf16);
  EXPECT_TRUE(parse_search_name("search:x.ckpt:walls=4:bf16=1").options.bf16);
  EXPECT_FALSE(parse_search_name("search:x.ckpt:bf16=0").options.bf16);
  try {
    parse_search_name("search:m.ckpt:bf16=2");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bf16 must be 0 or 1, got '2'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hydra::selfplay
