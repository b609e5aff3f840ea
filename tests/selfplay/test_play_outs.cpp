// Play-outs played by a network (selfplay.play_out_agent; docs/PPO.md "Play-outs by the network"):
// a play-out is the game continued by its agent from the copied table, computed independently
// here from per-seat observers replaying the game's events; it reads nothing its seats cannot
// see; inside the actors, its passes batched with the games', the results are the same at one
// and two threads, nothing the policy plays changes, and the two ways of taking the reference
// (the snapshot's known argmax, or none: the other actions' mean) give action values that differ
// by one constant per decision.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include <oneapi/tbb/global_control.h>

#include "hydra/common/config.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/encoder/augment.hpp"
#include "hydra/encoder/context.hpp"
#include "hydra/encoder/encoder.hpp"
#include "hydra/game/kyoku.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/table.hpp"
#include "hydra/selfplay/actors.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/engine.hpp"
#include "hydra/selfplay/model_agent.hpp"
#include "hydra/selfplay/play_out_game.hpp"
#include "hydra/selfplay/policy.hpp"
#include "hydra/selfplay/rewards.hpp"
#include "hydra/selfplay/rollout.hpp"
#include "stored_probs.hpp"
#include "sanitized.hpp"

namespace hydra::selfplay {
namespace {

constexpr std::size_t kObs = encoder::kObsSize;

// A policy that keeps every row it was asked about.
class RecordingPolicy final : public BatchPolicy {
 public:
  explicit RecordingPolicy(std::uint64_t seed) : inner_(seed) {}
  void evaluate(const PolicyBatch& in, PolicyOutput out) override {
    for (int i = 0; i < in.n; ++i) rows.emplace_back(in.obs + ix(i) * kObs, in.obs + ix(i + 1) * kObs);
    inner_.evaluate(in, out);
  }
  std::int64_t version() const override { return 0; }
  std::vector<std::vector<float>> rows;

 private:
  LinearTestPolicy inner_;
};

// One engine game, played to its end.
class OneGame final : public EngineDriver {
 public:
  explicit OneGame(std::unique_ptr<EngineGame> g) : game_(std::move(g)) {}
  std::unique_ptr<EngineGame> next() override { return std::move(game_); }
  void finished(std::unique_ptr<EngineGame>) override { ++ended; }
  int ended = 0;

 private:
  std::unique_ptr<EngineGame> game_;
};

// A game of bot:greedy stopped at a decision that is the table's only pending one, with two or
// more legal actions, after at least `min_decisions`; every seat's encoder fed all along.
struct Position {
  std::unique_ptr<game::Table> table;
  game::SeatArray<encoder::Encoder> enc{encoder::Encoder(game::Seat(0)), encoder::Encoder(game::Seat(1)),
                                        encoder::Encoder(game::Seat(2)), encoder::Encoder(game::Seat(3))};
  game::Seat seat{0};
};

// A position of a greedy game after `min_decisions` decisions with one seat to decide between
// two actions or more; with `responses`, one where two seats or more answer a discard, the
// deciding seat the last of them.
std::unique_ptr<Position> position(std::uint64_t game, int min_decisions, bool responses = false) {
  auto p = std::make_unique<Position>();
  const game::GameKey key = game::game_key(game::MasterSeed{99}, game);
  Position* raw = p.get();
  p->table = std::make_unique<game::Table>(game::table_rules("tenhou"), key, true,
                                           [raw](const game::Table& t, const game::Event& e) {
                                             for (int s = 0; s < 4; ++s)
                                               raw->enc[game::Seat(s)].observe(t.view(game::Seat(s)), e);
                                           });
  game::SeatArray<GreedyAgent> bots;
  for (int s = 0; s < 4; ++s) bots[game::Seat(s)].start_game(game::Seat(s), key);
  int n = 0;
  for (;;) {
    if (p->table->done()) throw std::runtime_error("position: the game ended before such a decision");
    const auto pending = p->table->pending();
    if (n >= min_decisions && (responses ? pending.size() >= 2 : pending.size() == 1) &&
        pending[pending.size() - 1].mask.count() >= 2) {
      p->seat = pending[pending.size() - 1].seat;
      return p;
    }
    for (const game::Decision& d : pending) {
      ++n;
      p->table->act(d.seat, bots[d.seat].act(p->table->view(d.seat), d));
    }
  }
}

// The reference: the table copied, the same walls, then every decision of every seat taken by
// `policy` on the observation of an Observer that replayed the game's events from its start,
// under the seat's suit permutation, rounded to binary16 (as the actors' rows are), argmax or
// drawn from the seat's stream under `sampling`; to the kyoku's end, or with `depth` > 0 to the
// deciding seat's first network decision after `depth` decisions (or in a later kyoku), whose
// value it keeps (that decision and the others pending with it still played). With `tail` (a
// greedy tail) it is not cut: every decision after the first `depth`, in the table's order, is
// taken by bot:greedy seeded from `tail`, to the kyoku's end. With `others` (greedy others) every
// decision of a seat other than the deciding one is bot:greedy's, seeded from `others`; with
// `others_policy` it is that policy's.
PlayOutEnd continued(const Position& p, std::optional<game::Action> first, std::optional<game::Xoshiro256ss> walls,
                     BatchPolicy& policy, double temperature, const game::StreamKey& sampling,
                     const game::SeatArray<encoder::SuitPerm>& perm, int depth = 0,
                     const game::GameKey* tail = nullptr, const game::GameKey* others = nullptr,
                     BatchPolicy* others_policy = nullptr) {
  const game::TableRules& rules = game::table_rules("tenhou");
  std::vector<encoder::Observer> obs;
  for (int s = 0; s < 4; ++s) obs.emplace_back(game::Seat(s), rules);
  for (const game::Event& e : p.table->events())
    for (auto& o : obs) o.apply(e);
  PlayOutEnd end;
  auto t = p.table->branch([&](const game::Table&, const game::Event& e) {
    for (auto& o : obs) o.apply(e);
    if (e.type == game::EventType::start_kyoku && !end.next) end.next = game::kyoku_start(e);
  });
  if (walls) t->shuffle_unseen(*walls);
  if (first) t->act(p.seat, *first);
  std::vector<game::Xoshiro256ss> rng;
  for (std::size_t s = 0; s < 4; ++s) rng.emplace_back(game::derive(sampling, game::labels::exploration, {s}));
  std::vector<float> row(kObs), probs(kActions);
  float value = 0;
  game::SeatArray<GreedyAgent> bots;
  if (tail || others)
    for (int s = 0; s < 4; ++s) bots[game::Seat(s)].start_game(game::Seat(s), tail ? *tail : *others);
  while (!t->done() && (depth > 0 && !tail ? !end.value : !end.next)) {
    const auto pending = t->pending();
    // The seat's first answer may sit after the others: once they are answered the list is new.
    auto open = std::count_if(pending.begin(), pending.end(), [&](const game::Decision& d) { return !t->answered(d.seat); });
    for (const game::Decision& d : pending) {
      if (open == 0) break;
      if (t->answered(d.seat)) continue;
      --open;
      const std::int64_t before = end.decisions++;
      if (d.mask.count() == 1) {
        t->act(d.seat, d.mask.nth(0));
        continue;
      }
      if ((tail && before >= depth) || (others && d.seat != p.seat)) {
        t->act(d.seat, bots[d.seat].act(t->view(d.seat), d));
        continue;
      }
      const std::size_t s = ix(d.seat.index());
      perm[s].apply(obs[s].encode().v.data(), row.data());
      round_to_half(row.data(), nullptr, kObs);
      const auto ctx = encoder::score_context(obs[s].view());
      const game::ActionMask legal = perm[s](d.mask);
      BatchPolicy& decider = others_policy != nullptr && d.seat != p.seat ? *others_policy : policy;
      decider.evaluate(PolicyBatch{row.data(), ctx.data(), &legal, 1}, PolicyOutput{probs.data(), &value});
      if (depth > 0 && !tail && d.seat == p.seat && !end.value && (before >= depth || end.next)) end.value = value;
      const game::Action a = temperature > 0
                                 ? game::Action(sample_action(probs.data(), legal, 1.0 / temperature, rng[s].uniform01()))
                                 : pick_action(probs.data(), legal, std::nullopt);
      t->act(d.seat, perm[s].inverse()(a));
    }
  }
  end.scores = t->done() ? t->final_scores() : t->scores();
  return end;
}

// The play-out as the engine plays it: one PlayOutGame, alone.
PlayOutEnd engine_play_out(const Position& p, std::optional<game::Action> first,
                           std::optional<game::Xoshiro256ss> walls, BatchPolicy& policy, double temperature,
                           const game::StreamKey& sampling, const game::SeatArray<encoder::SuitPerm>& perm,
                           int depth = 0, const game::GameKey* tail = nullptr, bool without_policy = false,
                           const game::GameKey* others = nullptr, BatchPolicy* others_policy = nullptr) {
  PlayOutEnd out;
  std::atomic<int> outstanding{1};
  const PlayOutStart start{*p.table, p.seat, &p.enc, perm, tail ? tail : others};
  const PlayOutAgentSpec spec{without_policy ? nullptr : &policy, temperature, depth, tail != nullptr, others != nullptr,
                              others_policy};
  OneGame driver(std::make_unique<PlayOutGame>(start, first, walls, spec, sampling, &out, &outstanding));
  Engine engine(EngineOptions{});
  engine.run(driver);
  EXPECT_EQ(driver.ended, 1);
  EXPECT_EQ(outstanding.load(), 0);
  return out;
}

// The seats' suit permutations of a test game: none in even games, a different one per seat in odd ones.
game::SeatArray<encoder::SuitPerm> perms_of(std::uint64_t game) {
  game::SeatArray<encoder::SuitPerm> perm{};
  if (game % 2 == 1)
    for (int s = 0; s < 4; ++s) perm[game::Seat(s)] = encoder::SuitPerm::nth((s + static_cast<int>(game)) % 6);
  return perm;
}

bool same_end(const PlayOutEnd& a, const PlayOutEnd& b) {
  if (a.scores != b.scores || a.decisions != b.decisions || a.next.has_value() != b.next.has_value() ||
      a.value != b.value)
    return false;
  if (!a.next) return true;
  return a.next->round == b.next->round && a.next->honba == b.next->honba &&
         a.next->riichi_sticks == b.next->riichi_sticks && a.next->scores == b.next->scores;
}

TEST(NetworkPlayOut, IsTheGameContinuedByItsAgentFromTheCopiedTable) {
  LinearTestPolicy policy(5);
  int checked = 0, moved = 0;
  for (std::uint64_t game = 0; game < 6; ++game) {
    const auto p = position(game, 10 + 7 * static_cast<int>(game));
    const game::Decision d = p->table->pending()[0];
    const game::SeatArray<encoder::SuitPerm> perm = perms_of(game);
    const game::StreamKey sampling = game::derive(game::game_key(game::MasterSeed{7}, game), game::labels::play_out, {1});
    for (const double temperature : {0.0, 0.8})
      for (const bool fresh_walls : {false, true})
        for (const bool forced_first : {false, true}) {
          std::optional<game::Xoshiro256ss> walls;
          if (fresh_walls) walls.emplace(game::derive(sampling, game::labels::wall, {game}));
          const std::optional<game::Action> first =
              forced_first ? std::optional<game::Action>(d.mask.nth(d.mask.count() - 1)) : std::nullopt;
          const PlayOutEnd want = continued(*p, first, walls, policy, temperature, sampling, perm);
          const PlayOutEnd got = engine_play_out(*p, first, walls, policy, temperature, sampling, perm);
          EXPECT_TRUE(same_end(want, got)) << "game " << game << " T " << temperature << " walls " << fresh_walls;
          EXPECT_GT(got.decisions, 0);
          moved += got.scores != p->table->scores() || got.next.has_value();
          ++checked;
        }
  }
  EXPECT_EQ(checked, 48);
  EXPECT_GT(moved, 0);
}

// A cut play-out (search's depth) is the same game continued by its agent to the deciding seat's
// first network decision after `depth` decisions, or its first in the next kyoku, and keeps the
// network's value there: computed by the reference above, at depths from the next decision to
// past the kyoku's end. A cut after the kyoku ended is taken in the next one.
TEST(NetworkPlayOut, ACutPlayOutEndsAtTheSeatsDecisionWithItsValue) {
  LinearTestPolicy policy(5);
  int cut = 0, after_kyoku = 0, checked = 0;
  for (std::uint64_t game = 0; game < 6; ++game) {
    const auto p = position(game, 10 + 7 * static_cast<int>(game));
    const game::SeatArray<encoder::SuitPerm> perm{};
    const game::StreamKey sampling = game::derive(game::game_key(game::MasterSeed{8}, game), game::labels::play_out, {1});
    const PlayOutEnd full = engine_play_out(*p, std::nullopt, std::nullopt, policy, 0.0, sampling, perm);
    for (const int depth : {1, 4, 12, 200}) {
      for (const double temperature : {0.0, 0.8}) {
        const PlayOutEnd want = continued(*p, std::nullopt, std::nullopt, policy, temperature, sampling, perm, depth);
        const PlayOutEnd got = engine_play_out(*p, std::nullopt, std::nullopt, policy, temperature, sampling, perm, depth);
        EXPECT_TRUE(same_end(want, got)) << "game " << game << " depth " << depth << " T " << temperature;
        ++checked;
        if (temperature > 0) continue;
        // At argmax the cut play-out is the full one's start: cut within the kyoku after `depth`
        // decisions and no later than its end, or past its end in the next one.
        if (got.value && !got.next) {
          ++cut;
          EXPECT_GT(got.decisions, depth);
          EXPECT_LE(got.decisions, full.decisions);
        } else if (got.value) {
          ++after_kyoku;
          EXPECT_GT(got.decisions, full.decisions);
        }
      }
    }
    EXPECT_FALSE(full.value);  // an uncut play-out keeps no value
  }
  EXPECT_EQ(checked, 48);
  EXPECT_GT(cut, 0);
  EXPECT_GT(after_kyoku, 0);  // depth 200 passes the kyoku's end
}

// With a greedy tail the play-out is the game continued by its agent for `depth` decisions, then
// by bot:greedy in every seat (seeded from the game key) to the kyoku's end, computed by the
// reference above; it keeps no value. At a depth past the kyoku it is the full network play-out;
// at the smallest depth it differs from it (the greedy bot plays on).
TEST(NetworkPlayOut, AGreedyTailPlaysOnFromTheDepthToTheKyokusEnd) {
  LinearTestPolicy policy(5);
  int checked = 0, differs = 0;
  for (std::uint64_t game = 0; game < 6; ++game) {
    const auto p = position(game, 10 + 7 * static_cast<int>(game));
    const game::GameKey key = game::game_key(game::MasterSeed{99}, game);
    const game::SeatArray<encoder::SuitPerm> perm = perms_of(game);
    const game::StreamKey sampling = game::derive(game::game_key(game::MasterSeed{9}, game), game::labels::play_out, {1});
    std::optional<game::Xoshiro256ss> walls;
    if (game % 3 == 2) walls.emplace(game::derive(sampling, game::labels::wall, {game}));
    const PlayOutEnd full = engine_play_out(*p, std::nullopt, walls, policy, 0.0, sampling, perm);
    for (const int depth : {1, 3, 8, 10000}) {
      for (const double temperature : {0.0, 0.8}) {
        const PlayOutEnd want = continued(*p, std::nullopt, walls, policy, temperature, sampling, perm, depth, &key);
        const PlayOutEnd got = engine_play_out(*p, std::nullopt, walls, policy, temperature, sampling, perm, depth, &key);
        EXPECT_TRUE(same_end(want, got)) << "game " << game << " depth " << depth << " T " << temperature;
        EXPECT_FALSE(got.value);
        ++checked;
        if (temperature > 0) continue;
        if (depth == 10000) {
          EXPECT_TRUE(same_end(got, full)) << "game " << game;
        }
        if (depth == 1) differs += !same_end(got, full);
      }
    }
  }
  EXPECT_EQ(checked, 48);
  EXPECT_GT(differs, 0);
}

// A greedy tail from the first decision (depth 0, the search's continuation=greedy) is the greedy
// bot's kyoku in every seat: the reference's, with or without a network at hand (it is never asked),
// also where the deciding seat answers a discard after other seats (the engine answers those
// itself, and must not answer the seat's again once the discard's answers are complete).
TEST(NetworkPlayOut, AGreedyTailFromTheFirstDecisionNeedsNoNetwork) {
  LinearTestPolicy policy(5);
  int differs = 0;
  for (std::uint64_t game = 0; game < 8; ++game) {
    // Half from a discard two seats or more answer, the deciding seat's answer the last.
    const auto p = position(game, 10 + 7 * static_cast<int>(game), game >= 4);
    const game::GameKey key = game::game_key(game::MasterSeed{99}, game);
    const game::SeatArray<encoder::SuitPerm> perm{};
    const game::StreamKey sampling = game::derive(game::game_key(game::MasterSeed{9}, game), game::labels::play_out, {1});
    std::optional<game::Xoshiro256ss> walls;
    if (game % 2 == 1) walls.emplace(game::derive(sampling, game::labels::wall, {game}));
    const auto pending = p->table->pending();
    const std::optional<game::Action> first = pending[pending.size() - 1].mask.nth(0);
    const PlayOutEnd want = continued(*p, first, walls, policy, 0.0, sampling, perm, 0, &key);
    const PlayOutEnd got = engine_play_out(*p, first, walls, policy, 0.0, sampling, perm, 0, &key, true);
    EXPECT_TRUE(same_end(want, got)) << "game " << game;
    EXPECT_TRUE(same_end(engine_play_out(*p, first, walls, policy, 0.0, sampling, perm, 0, &key), got)) << "game " << game;
    EXPECT_FALSE(got.value);
    EXPECT_GT(got.decisions, 0);
    differs += !same_end(got, engine_play_out(*p, first, walls, policy, 0.0, sampling, perm));
  }
  EXPECT_GT(differs, 0);  // the network's play-outs go other ways
  // Only a play-out greedy from its first decision plays without a network.
  const auto p = position(0, 10);
  const game::GameKey key = game::game_key(game::MasterSeed{99}, 0);
  const game::SeatArray<encoder::SuitPerm> perm{};
  EXPECT_THROW(engine_play_out(*p, std::nullopt, std::nullopt, policy, 0.0, {}, perm, 2, &key, true), std::exception);
}

// A play-out's start for the other-seats tests: game `game`'s position (from a discard several seats
// answer, the deciding seat's answer the last, where `from_discard`), the game key of `master` (the
// greedy bots' seeds), the seats' suit permutations, the sampling stream of `sampling_master`, a
// fresh deal where `fresh_deal`, and the deciding seat's first legal action as the candidate.
struct OthersCase {
  std::unique_ptr<Position> p;
  game::GameKey key;
  game::SeatArray<encoder::SuitPerm> perm;
  game::StreamKey sampling;
  std::optional<game::Xoshiro256ss> walls;
  std::optional<game::Action> first;
  OthersCase(std::uint64_t game, bool from_discard, bool fresh_deal, std::uint64_t master, std::uint64_t sampling_master)
      : p(position(game, 10 + 7 * static_cast<int>(game), from_discard)),
        key(game::game_key(game::MasterSeed{master}, game)),
        perm(perms_of(game)),
        sampling(game::derive(game::game_key(game::MasterSeed{sampling_master}, game), game::labels::play_out, {1})) {
    if (fresh_deal) walls.emplace(game::derive(sampling, game::labels::wall, {game}));
    const auto pending = p->table->pending();
    first = pending[pending.size() - 1].mask.nth(0);
  }
};

// With greedy others the deciding seat plays the network to the kyoku's end and bot:greedy the
// three other seats from the first decision (seeded from the game key): the reference's, at both
// temperatures, from the seat's own turn and from a discard it answers after other seats, with a
// fresh deal or the game's own; with a greedy tail as well, the seat's network stops at the depth.
// It differs from the network in every seat and from the greedy bot in every seat.
TEST(NetworkPlayOut, GreedyOthersLeaveTheDecidingSeatToTheNetwork) {
  LinearTestPolicy policy(5);
  int checked = 0, not_all_network = 0, not_all_greedy = 0;
  for (std::uint64_t game = 0; game < 8; ++game) {
    const OthersCase c(game, game >= 4, game % 3 != 0, 98, 10);
    for (const double temperature : {0.0, 0.8}) {
      const PlayOutEnd want = continued(*c.p, c.first, c.walls, policy, temperature, c.sampling, c.perm, 0, nullptr, &c.key);
      const PlayOutEnd got =
          engine_play_out(*c.p, c.first, c.walls, policy, temperature, c.sampling, c.perm, 0, nullptr, false, &c.key);
      EXPECT_TRUE(same_end(want, got)) << "game " << game << " T " << temperature;
      EXPECT_FALSE(got.value);
      EXPECT_GT(got.decisions, 0);
      ++checked;
      if (temperature > 0) continue;
      not_all_network += !same_end(got, engine_play_out(*c.p, c.first, c.walls, policy, 0.0, c.sampling, c.perm));
      not_all_greedy +=
          !same_end(got, engine_play_out(*c.p, c.first, c.walls, policy, 0.0, c.sampling, c.perm, 0, &c.key, true));
    }
    // With a greedy tail after 6 decisions: the seat's network for those of the first 6 that are its own.
    const PlayOutEnd want = continued(*c.p, c.first, c.walls, policy, 0.0, c.sampling, c.perm, 6, &c.key, &c.key);
    const PlayOutEnd got = engine_play_out(*c.p, c.first, c.walls, policy, 0.0, c.sampling, c.perm, 6, &c.key, false, &c.key);
    EXPECT_TRUE(same_end(want, got)) << "game " << game << " with a tail";
    ++checked;
  }
  EXPECT_EQ(checked, 24);
  EXPECT_GT(not_all_network, 0);
  EXPECT_GT(not_all_greedy, 0);
}

// With another network in the other seats (selfplay.play_out_others = start or a checkpoint) the
// deciding seat plays its network and the others theirs, each from its own rows: the reference's,
// at both temperatures, from the seat's turn and from a discard it answers after others, with and
// without a greedy tail after 6 decisions; both networks are asked, and it differs from the
// deciding seat's network in every seat.
TEST(NetworkPlayOut, AnotherNetworkPlaysTheOtherSeats) {
  LinearTestPolicy policy(5), opponents(6);
  int checked = 0, differs = 0;
  for (std::uint64_t game = 0; game < 6; ++game) {
    const OthersCase c(game, game >= 3, game % 2 == 0, 97, 11);
    for (const double temperature : {0.0, 0.8})
      for (const int depth : {0, 6}) {
        const game::GameKey* tail = depth > 0 ? &c.key : nullptr;
        const PlayOutEnd want = continued(*c.p, c.first, c.walls, policy, temperature, c.sampling, c.perm, depth, tail,
                                          nullptr, &opponents);
        const PlayOutEnd got = engine_play_out(*c.p, c.first, c.walls, policy, temperature, c.sampling, c.perm, depth,
                                               tail, false, nullptr, &opponents);
        EXPECT_TRUE(same_end(want, got)) << "game " << game << " T " << temperature << " depth " << depth;
        ++checked;
        if (temperature == 0 && depth == 0)
          differs += !same_end(got, engine_play_out(*c.p, c.first, c.walls, policy, 0.0, c.sampling, c.perm));
      }
  }
  EXPECT_EQ(checked, 24);
  EXPECT_GT(differs, 0);
  EXPECT_GT(opponents.rows(), 0);
  EXPECT_GT(policy.rows(), 0);
}

// What the seats cannot see (the wall's order) reaches no row: the decision a free play-out
// starts with is encoded the same on two different deals of the unseen tiles, while the play-outs
// themselves go different ways.
TEST(NetworkPlayOut, ReadsNothingItsSeatsCannotSee) {
  int differ = 0;
  for (std::uint64_t game = 0; game < 4; ++game) {
    const auto p = position(game, 12);
    const game::SeatArray<encoder::SuitPerm> perm{};
    std::vector<std::vector<float>> first_rows;
    std::vector<PlayOutEnd> ends;
    for (std::uint64_t w = 0; w < 2; ++w) {
      RecordingPolicy policy(3);
      std::optional<game::Xoshiro256ss> walls;
      walls.emplace(game::derive(game::game_key(game::MasterSeed{1}, game), game::labels::wall, {w}));
      ends.push_back(engine_play_out(*p, std::nullopt, walls, policy, 0.0, game::StreamKey{}, perm));
      ASSERT_FALSE(policy.rows.empty());
      first_rows.push_back(policy.rows.front());
    }
    EXPECT_EQ(first_rows[0], first_rows[1]) << "game " << game;
    differ += !same_end(ends[0], ends[1]);
  }
  EXPECT_GT(differ, 0);
}

// ---- Inside the actors ---------------------------------------------------------------------

struct Collected {
  Rollout rollout;
  ActorStats stats;
};

// A cut play-out's options: its depth, the game's length, the reward model of the games.
struct Cut {
  int depth = 0;
  std::string length = "kyoku";
  std::shared_ptr<KyokuRewardModel> rewards;
  int games = hydra::testing::sized(6, 3);
  std::string tail = "value";  // selfplay.play_out_tail
  std::string others = "agent";  // selfplay.play_out_others
  std::shared_ptr<BatchPolicy> others_policy = nullptr;  // its network, for start or a checkpoint
  bool calls = true;   // selfplay.play_out_calls
  bool riichi = true;  // selfplay.play_out_riichi
};

Collected collect(int threads, const std::string& agent, bool expected, std::shared_ptr<BatchPolicy> play_out = nullptr,
                  bool play_outs = true, double unsure = 1.0, const Cut& cut = {}) {
  config::Config cfg;
  cfg.rules.length = cut.length;
  cfg.selfplay.games = cut.games;
  cfg.selfplay.max_batch = 7;
  cfg.selfplay.opp_self = 0.5;
  cfg.selfplay.opp_pool = 0.25;
  cfg.selfplay.opp_baseline = 0.25;  // bot:greedy seats: their encoders are kept for the play-outs
  if (play_outs) {
    cfg.ppo.advantage = "rollout";
    cfg.selfplay.play_outs = 2;
    cfg.selfplay.play_out_agent = agent;
    cfg.selfplay.play_out_unsure = unsure;
    cfg.selfplay.play_out_depth = cut.depth;
    cfg.selfplay.play_out_tail = cut.tail;
    cfg.selfplay.play_out_others = cut.others;
    cfg.selfplay.play_out_calls = cut.calls;
    cfg.selfplay.play_out_riichi = cut.riichi;
    if (expected) {
      cfg.ppo.policy_gradient = "expected";
      cfg.selfplay.play_out_min_prob = 0.1;
    }
  }
  oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism, ix(threads));
  Actors actors(actors_config(cfg), game::MasterSeed{31}, std::make_shared<LinearTestPolicy>(1, 1), nullptr);
  actors.set_pool({std::make_shared<LinearTestPolicy>(2, 0)});
  if (play_out) actors.set_play_out_policy(play_out);
  if (cut.others_policy) actors.set_play_out_others_policy(cut.others_policy);
  if (cut.rewards) actors.set_reward_model(cut.rewards);
  Collected c;
  c.rollout = actors.collect(hydra::testing::sized(80, 40));
  c.stats = actors.take_stats();
  return c;
}

bool same_games(const Rollout& a, const Rollout& b) {
  return a.obs == b.obs && a.action == b.action && a.logp == b.logp && a.legal == b.legal && a.reward == b.reward &&
         a.done == b.done && a.game == b.game && a.seat == b.seat;
}

TEST(ActorsNetworkPlayOuts, BatchedWithTheGamesTheSameAtOneAndTwoThreads) {
  const Collected plain = collect(1, "", false, nullptr, false);
  for (const bool expected : {false, true}) {
    const Collected one = collect(1, "snapshot", expected);
    const Collected two = collect(2, "snapshot", expected);
    const Rollout& r = one.rollout;
    r.check();
    EXPECT_TRUE(same_games(plain.rollout, r)) << "the play-outs changed what the policy played";
    EXPECT_TRUE(same_games(r, two.rollout));
    EXPECT_EQ(r.paired, two.rollout.paired);
    EXPECT_EQ(r.paired_advantage, two.rollout.paired_advantage);
    EXPECT_EQ(r.played_out, two.rollout.played_out);
    EXPECT_EQ(r.action_value, two.rollout.action_value);
    EXPECT_EQ(one.stats.branch_decisions, two.stats.branch_decisions);
    EXPECT_GT(one.stats.branches, 0);
    EXPECT_GT(one.stats.branch_decisions, 0);
    // The play-outs' passes are the engine's: more rows than the games' own decisions.
    EXPECT_GT(one.stats.forward_passes, plain.stats.forward_passes);
    std::int64_t nonzero = 0;
    for (const float a : r.paired_advantage) nonzero += a != 0.0f;
    EXPECT_GT(nonzero, 0);
  }
}

// The snapshot's argmax is known where the decision was sampled, so it is the reference (marked,
// value 0); another network's (here the same weights as another object) is not, and its action
// values are taken against the mean of those played out. The play-outs of each action are the
// same either way (same walls, same argmax agent), so at every decision the two differ by one
// constant over the actions both played out.
TEST(ActorsNetworkPlayOuts, KnownAndUnknownReferencesDifferByOneConstantPerDecision) {
  const Collected snap = collect(2, "snapshot", true);
  const Collected other = collect(2, "other.ckpt", true, std::make_shared<LinearTestPolicy>(1, 1));
  const Rollout& a = snap.rollout;
  const Rollout& b = other.rollout;
  ASSERT_TRUE(same_games(a, b));
  int compared = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::uint64_t both = a.played_out[i] & b.played_out[i];
    if (std::popcount(both) < 2) continue;
    std::optional<double> offset;
    for (int x = 0; x < kActions; ++x) {
      if (!((both >> x) & 1U)) continue;
      const double d = double(a.action_value[i * kActions + ix(x)]) - double(b.action_value[i * kActions + ix(x)]);
      if (!offset) offset = d;
      EXPECT_NEAR(d, *offset, 1e-5) << "decision " << i << " action " << x;
    }
    ++compared;
  }
  EXPECT_GT(compared, 5);
}

// selfplay.play_out_unsure: only decisions whose most likely action is below the threshold are
// played out, the others carry nothing; the games are the same.
TEST(ActorsNetworkPlayOuts, OnlyUnsureDecisionsArePlayedOut) {
  constexpr double kUnsure = 0.5;
  const Collected all = collect(1, "snapshot", true);
  const Collected unsure = collect(1, "snapshot", true, nullptr, true, kUnsure);
  const Rollout& r = unsure.rollout;
  ASSERT_TRUE(same_games(all.rollout, r));
  LinearTestPolicy policy(1, 1);
  const std::vector<float> probs = hydra::testing::stored_probs(r, policy);
  std::int64_t skipped = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    float top = 0;
    for (int x = 0; x < kActions; ++x)
      if ((r.legal[i] >> x) & 1U) top = std::max(top, probs[i * kActions + ix(x)]);
    if (top >= kUnsure) {
      EXPECT_EQ(r.paired[i], 0) << "decision " << i;
      EXPECT_EQ(r.played_out[i], 0U);
    }
    if (all.rollout.paired[i] && !r.paired[i]) {
      ++skipped;
    } else {
      EXPECT_EQ(r.played_out[i], all.rollout.played_out[i]) << "decision " << i;
    }
  }
  EXPECT_GT(skipped, 0);
  EXPECT_LT(unsure.stats.branch_decisions, all.stats.branch_decisions);
}

// selfplay.play_out_calls and play_out_riichi off: no decision on another seat's discard or kan
// (the only ones where pass is legal) and none where riichi may be declared is played out; every
// other decision is played out exactly as with both on (the gate draws nothing), and the games
// are the same.
TEST(ActorsNetworkPlayOuts, WithoutCallsAndRiichiOnlyTheOtherDecisionsArePlayedOut) {
  Cut own;
  own.calls = false;
  own.riichi = false;
  const Collected all = collect(1, "bot:greedy", true);
  const Collected gated = collect(1, "bot:greedy", true, nullptr, true, 1.0, own);
  const Rollout& r = gated.rollout;
  ASSERT_TRUE(same_games(all.rollout, r));
  const auto legal = [](std::uint64_t mask, int a) { return ((mask >> a) & 1U) != 0; };
  std::int64_t skipped = 0, kept = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    const bool excluded = legal(r.legal[i], game::Action::kPass) || legal(r.legal[i], game::Action::kRiichi);
    if (excluded) {
      EXPECT_EQ(r.paired[i], 0) << "decision " << i;
      EXPECT_EQ(r.played_out[i], 0U) << "decision " << i;
      skipped += all.rollout.paired[i] != 0;
    } else {
      EXPECT_EQ(r.paired[i], all.rollout.paired[i]) << "decision " << i;
      EXPECT_EQ(r.played_out[i], all.rollout.played_out[i]) << "decision " << i;
      EXPECT_EQ(r.paired_advantage[i], all.rollout.paired_advantage[i]) << "decision " << i;
      kept += r.paired[i] != 0;
    }
  }
  EXPECT_GT(skipped, 0) << "no call or riichi decision was played out with the gate off";
  EXPECT_GT(kept, 0);
  EXPECT_LT(gated.stats.branch_decisions, all.stats.branch_decisions);
}

// A policy whose value is the deciding seat's own score / 10,000, read from its row's score
// context; its probabilities are LinearTestPolicy(1, 1)'s.
class OwnScoreValue final : public BatchPolicy {
 public:
  void evaluate(const PolicyBatch& in, PolicyOutput out) override {
    inner_.evaluate(in, out);
    for (int i = 0; i < in.n; ++i) out.value[i] = in.context[ix(i) * encoder::kContextSize] * 10.0f;
  }
  std::int64_t version() const override { return 0; }

 private:
  LinearTestPolicy inner_{1, 1};
};

// A kyoku's reward: the seat's score at the next kyoku's start / 10,000, or on the game's last
// kyoku its placement points.
class NextKyokuScore final : public KyokuRewardModel {
 public:
  std::vector<std::array<double, 4>> rewards(const std::vector<game::KyokuStart>& kyoku,
                                             const std::array<int, 4>& final_scores) override {
    const auto rank = game::ranks(final_scores);
    std::vector<std::array<double, 4>> out(kyoku.size());
    for (std::size_t k = 0; k < kyoku.size(); ++k)
      for (std::size_t s = 0; s < 4; ++s)
        out[k][s] = k + 1 < kyoku.size() ? kyoku[k + 1].scores[s] / 10000.0 : kPlacementReward[ix(rank[s])];
    return out;
  }
};

// selfplay.play_out_depth: a cut play-out is scored by its agent's value where it was cut, or the
// placement points where the game ended first, in place of the games' reward model. Cut at the
// seat's first network decision of the next kyoku (a depth no kyoku reaches) by an agent whose
// value is the seat's own score then, a decision's action values are those of play-outs to the
// kyoku's end rewarded by a model that pays the score at the next kyoku's start (or the placement
// points): the two differ only where the next kyoku ended before the seat had a choice to make,
// which moves the cut a kyoku on (none of these games has one). The same at one and two threads.
TEST(ActorsNetworkPlayOuts, ACutPlayOutIsScoredByTheAgentsValueWhereItWasCut) {
  const auto agent = std::make_shared<OwnScoreValue>();
  const auto rewards = std::make_shared<NextKyokuScore>();
  const Cut full{0, "tonpuusen", rewards, 2}, cut{10000, "tonpuusen", rewards, 2};
  constexpr double kUnsure = 0.5;  // fewer decisions played out: a shorter test
  const Collected a = collect(1, "other.ckpt", true, agent, true, kUnsure, full);
  const Collected b = collect(1, "other.ckpt", true, agent, true, kUnsure, cut);
  const Collected b2 = collect(2, "other.ckpt", true, agent, true, kUnsure, cut);
  const Rollout& x = a.rollout;
  const Rollout& y = b.rollout;
  ASSERT_TRUE(same_games(x, y));
  ASSERT_TRUE(same_games(y, b2.rollout));
  EXPECT_EQ(y.action_value, b2.rollout.action_value);
  EXPECT_EQ(y.paired_advantage, b2.rollout.paired_advantage);
  ASSERT_EQ(x.paired, y.paired);
  ASSERT_EQ(x.played_out, y.played_out);
  int equal = 0, differ = 0, nonzero = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (std::popcount(x.played_out[i]) < 2) continue;
    bool same = true;
    for (int k = 0; k < kActions; ++k) {
      const float v = y.action_value[i * kActions + ix(k)];
      same = same && std::abs(x.action_value[i * kActions + ix(k)] - v) < 1e-4f;
      nonzero += v != 0.0f;
    }
    (same ? equal : differ) += 1;
  }
  EXPECT_GT(nonzero, 20);
  EXPECT_GT(equal, 20);
  EXPECT_EQ(differ, 0) << equal << " equal";
}

// A continuation other than the full network play-out's (`a` at one thread, `b` at two): the same
// games at both thread counts with the same action values, and the same decisions played out as
// `full` with other action values.
void expect_other_values_the_same_at_two_threads(const Collected& full, const Collected& a, const Collected& b) {
  ASSERT_TRUE(same_games(a.rollout, b.rollout));
  EXPECT_EQ(a.rollout.action_value, b.rollout.action_value);
  EXPECT_EQ(a.stats.branch_decisions, b.stats.branch_decisions);
  ASSERT_TRUE(same_games(full.rollout, a.rollout));
  EXPECT_EQ(full.rollout.played_out, a.rollout.played_out);
  EXPECT_NE(full.rollout.action_value, a.rollout.action_value);
}

// A greedy tail after a depth no kyoku reaches is the full network play-out: the same action
// values as play-outs to the kyoku's end (both rewarded like the games). A short one hands the
// kyoku to bot:greedy, which changes them, and is the same at one and two threads (its cost:
// docs/PPO.md, measured by hydra bench selfplay).
TEST(ActorsNetworkPlayOuts, AGreedyTailIsRewardedLikeAFullPlayOut) {
  const Collected full = collect(1, "snapshot", true);
  const int games = Cut{}.games;  // those of `full`
  Cut long_tail{10000, "kyoku", nullptr, games, "bot:greedy"}, short_tail{2, "kyoku", nullptr, games, "bot:greedy"};
  const Collected same = collect(1, "snapshot", true, nullptr, true, 1.0, long_tail);
  const Collected a = collect(1, "snapshot", true, nullptr, true, 1.0, short_tail);
  const Collected b = collect(2, "snapshot", true, nullptr, true, 1.0, short_tail);
  ASSERT_TRUE(same_games(full.rollout, same.rollout));
  EXPECT_EQ(full.rollout.played_out, same.rollout.played_out);
  EXPECT_EQ(full.rollout.action_value, same.rollout.action_value);
  EXPECT_EQ(full.stats.branch_decisions, same.stats.branch_decisions);
  expect_other_values_the_same_at_two_threads(full, a, b);
}

// Greedy others (selfplay.play_out_others = bot:greedy): the same decisions played out as with
// the network in every seat, other action values, the same at one and two threads, and fewer
// rows for the play-out network (only the deciding seat's play-out decisions are its).
TEST(ActorsNetworkPlayOuts, GreedyOthersAreTheSameAtOneAndTwoThreadsForFewerRows) {
  const auto every_seat = std::make_shared<LinearTestPolicy>(4);
  const Collected full = collect(1, "other.ckpt", true, every_seat);
  Cut others;
  others.others = "bot:greedy";
  const auto seat_only = std::make_shared<LinearTestPolicy>(4);
  const Collected a = collect(1, "other.ckpt", true, seat_only, true, 1.0, others);
  const Collected b = collect(2, "other.ckpt", true, std::make_shared<LinearTestPolicy>(4), true, 1.0, others);
  expect_other_values_the_same_at_two_threads(full, a, b);
  EXPECT_GT(seat_only->rows(), 0);
  EXPECT_LT(2 * seat_only->rows(), every_seat->rows());
}

// Another network in the other seats (selfplay.play_out_others = a checkpoint): the same
// decisions played out, other action values, the same at one and two threads; the deciding seat's
// network answers fewer rows than it does in every seat, and the others' network the rest.
TEST(ActorsNetworkPlayOuts, AnotherNetworkInTheOtherSeatsIsTheSameAtOneAndTwoThreads) {
  const auto every_seat = std::make_shared<LinearTestPolicy>(4);
  const Collected full = collect(1, "other.ckpt", true, every_seat);
  const auto seat = std::make_shared<LinearTestPolicy>(4);
  Cut others;
  others.others = "opponents.ckpt";
  others.others_policy = std::make_shared<LinearTestPolicy>(7);
  const Collected a = collect(1, "other.ckpt", true, seat, true, 1.0, others);
  const auto* opponents = dynamic_cast<const LinearTestPolicy*>(others.others_policy.get());
  ASSERT_NE(opponents, nullptr);
  EXPECT_GT(opponents->rows(), 0);
  EXPECT_LT(seat->rows(), every_seat->rows());
  others.others_policy = std::make_shared<LinearTestPolicy>(7);
  const Collected b = collect(2, "other.ckpt", true, std::make_shared<LinearTestPolicy>(4), true, 1.0, others);
  expect_other_values_the_same_at_two_threads(full, a, b);
}

TEST(ActorsNetworkPlayOuts, ANetworkAgentWithoutItsPolicyIsAnError) {
  EXPECT_THROW(collect(1, "other.ckpt", true), Error);
  Cut others;
  others.others = "opponents.ckpt";  // a network for the other seats, never given
  EXPECT_THROW(collect(1, "other.ckpt", true, std::make_shared<LinearTestPolicy>(4), true, 1.0, others), Error);
}

}  // namespace
}  // namespace hydra::selfplay
