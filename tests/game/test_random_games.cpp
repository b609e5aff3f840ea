// RandomSimTest (OpenSpiel) for the table: 2,100 seeded random-agent games (1,500 tenhou hanchan; 800 in the sanitizer builds), asserting at every
// decision that the legal mask matches the concrete move list, that every legal move is accepted
// by the seat's own legality check, that all 136 tiles are accounted for, that points plus riichi
// sticks are conserved, and that every game ends; then the table's own event stream must pass the
// replay checker (the table and the checker agree). Then the table rules keys at work: West
// extension and tobi on and off over the same seeded games.

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "hydra/common/index.hpp"
#include "hydra/data/replay.hpp"
#include "hydra/game/agent.hpp"
#include "hydra/game/runner.hpp"
#include "hydra/game/table.hpp"
#include "sanitized.hpp"

namespace hydra::game {
namespace {


// Every physical tile is in exactly one place: a hand, a meld, a river (uncalled), or the wall.
void expect_all_tiles_accounted(const Table& t) {
  TileCounts c{};
  int red = 0;
  auto add = [&](Pai p) {
    ++c[ix(p.type().index())];
    red += p.is_red() ? 1 : 0;
  };
  for (int s = 0; s < kNumSeats; ++s) {
    const PlayerView& v = t.view(Seat(s));
    for (Pai p : closed_tiles(v.hand())) add(p);
    for (const Meld& m : v.melds(Seat(s)))
      for (int k = 0; k < m.size(); ++k) add(m.tile(k));
    for (const RiverTile& r : v.river(Seat(s)))
      if (!r.called) add(r.pai);
  }
  // A called tile sits in the caller's meld; the wall holds everything not yet drawn.
  const Wall& w = t.wall();
  const int kans = w.kans();
  const int draws = Wall::kLiveTiles - w.live_left() - kans;
  for (int i = 0; i < kNumTiles; ++i) {
    const bool dealt = i < Wall::kDealTiles;
    const bool drawn_live = i >= Wall::kLiveBegin && i < Wall::kLiveBegin + draws;
    const bool drawn_rinshan = i >= Wall::kDeadBegin && i < Wall::kDeadBegin + kans;
    if (!dealt && !drawn_live && !drawn_rinshan) add(Pai(w.tiles()[ix(i)]));
  }
  for (int k = 0; k < kNumTileTypes; ++k) ASSERT_EQ(c[ix(k)], 4) << "tile type " << k;
  ASSERT_EQ(red, 3);
}

void expect_mask_matches_moves(const Table& t, const Decision& d) {
  const Legal& l = t.legal(d.seat);
  ASSERT_FALSE(d.mask.empty());
  if (d.phase == Phase::kan_select) {
    ASSERT_EQ(d.mask, l.kan_select_mask());
    ASSERT_GE(l.kans.size(), 2);
    return;
  }
  ASSERT_EQ(d.mask, l.mask);
  std::string why;
  for (int a = 0; a < kNumActions; ++a) {
    const Move& m = l.moves[ix(a)];
    if (!l.mask.test(Action(a))) continue;
    if (a == Action::kPass) continue;
    ASSERT_NE(m.type, EventType::none) << to_string(Action(a));
    const Event e = m.to_event(d.seat);
    if (a == Action::kRyukyoku) continue;  // the declaration has no actor field in mjai
    ASSERT_TRUE(t.view(d.seat).is_legal(e, &why)) << to_string(Action(a)) << ": " << why;
  }
}

void expect_points_conserved(const Table& t) {
  int sum = 1000 * t.kyotaku();
  for (std::int32_t s : t.scores()) sum += s;
  ASSERT_EQ(sum, 4 * t.rules().start_score);
}

struct Totals {
  int games = 0, kyoku = 0, decisions = 0, horas = 0, draws = 0, riichi = 0, kans = 0, calls = 0;
};

// Games first .. first + games - 1 of master seed `master`.
void play_checked(const TableRules& rules, std::uint64_t master, int games, Totals& totals, std::uint64_t first = 0) {
  std::array<RandomAgent, kNumSeats> agents;
  for (std::uint64_t g = first; g < first + static_cast<std::uint64_t>(games); ++g) {
    const GameKey key = game_key(MasterSeed{master}, g);
    for (int s = 0; s < kNumSeats; ++s) agents[ix(s)].start_game(Seat(s), key);
    Table t(rules, key);
    int steps = 0;
    while (!t.done()) {
      ASSERT_LT(++steps, 20000) << "game " << g << " does not end";
      expect_points_conserved(t);
      expect_all_tiles_accounted(t);
      const auto pending = t.pending();
      ASSERT_FALSE(pending.empty());
      for (const Decision& d : pending) {
        expect_mask_matches_moves(t, d);
        if (::testing::Test::HasFatalFailure()) return;
        t.act(d.seat, agents[ix(d.seat.index())].act(t.view(d.seat), d));
      }
    }
    ASSERT_EQ(t.events().back().type, EventType::end_game);
    int final_sum = 0;
    for (std::int32_t s : t.final_scores()) final_sum += s;
    ASSERT_EQ(final_sum, 4 * rules.start_score);
    data::GameLog log;
    log.events = t.events();
    const data::ReplayReport r = data::check_game(log, rules, "game " + std::to_string(g));
    ASSERT_EQ(r.status, data::ReplayStatus::pass) << r.message;
    ++totals.games;
    totals.kyoku += t.kyoku_played();
    totals.decisions += t.decisions();
    for (const Event& e : t.events()) {
      totals.horas += e.type == EventType::hora;
      totals.draws += e.type == EventType::ryukyoku;
      totals.riichi += e.type == EventType::reach_accepted;
      totals.kans += e.type == EventType::ankan || e.type == EventType::kakan || e.type == EventType::daiminkan;
      totals.calls += takes_discard(e.type);
    }
  }
}

TEST(RandomGames, TenhouHanchanInvariantsHold) {
  Totals t;
  const int games = hydra::testing::sized(1500, 500);
  play_checked(table_rules("tenhou"), 20260101, games, t);
  if (HasFatalFailure()) return;
  EXPECT_EQ(t.games, games);
  // Random play still reaches the rare branches the invariants must hold through.
  EXPECT_GT(t.horas, 0);
  EXPECT_GT(t.riichi, 0);
  EXPECT_GT(t.kans, 0);
  EXPECT_GT(t.calls, 1000);
  RecordProperty("kyoku", t.kyoku);
  RecordProperty("decisions", t.decisions);
}

TEST(RandomGames, OtherPresetsInvariantsHold) {
  for (const char* name : {"tenhou-tonpuusen", "tenhou-kyoku", "mahjongsoul"}) {
    Totals t;
    const int games = hydra::testing::sized(200, 100);
    play_checked(table_rules(name), 7, games, t);
    if (HasFatalFailure()) return;
    EXPECT_EQ(t.games, games) << name;
  }
}

// The same checks at scale, for scripts/random_games.sh (which runs shards of it in parallel):
// HYDRA_RANDOM_GAMES tenhou hanchan from game HYDRA_RANDOM_FIRST (default 0) of master seed
// HYDRA_RANDOM_SEED (default 20260101). Skipped when HYDRA_RANDOM_GAMES is unset.
TEST(RandomGames, ManyFromEnvironment) {
  const char* n = std::getenv("HYDRA_RANDOM_GAMES");
  if (n == nullptr || *n == '\0') GTEST_SKIP() << "HYDRA_RANDOM_GAMES is not set";
  auto number = [](const char* name, std::uint64_t fallback) {
    const char* v = std::getenv(name);
    return v == nullptr || *v == '\0' ? fallback : std::stoull(v);
  };
  const auto games = static_cast<int>(number("HYDRA_RANDOM_GAMES", 0));
  Totals t;
  play_checked(table_rules("tenhou"), number("HYDRA_RANDOM_SEED", 20260101), games, t, number("HYDRA_RANDOM_FIRST", 0));
  if (HasFatalFailure()) return;
  EXPECT_EQ(t.games, games);
  RecordProperty("games", t.games);
  RecordProperty("kyoku", t.kyoku);
  RecordProperty("decisions", t.decisions);
  RecordProperty("horas", t.horas);
}

TEST(RandomGames, SameKeySameGame) {
  std::array<RandomAgent, kNumSeats> a1, a2;
  const GameKey key = game_key(MasterSeed{99}, 3);
  const GameResult r1 = play_game(table_rules("tenhou"), key, {&a1[0], &a1[1], &a1[2], &a1[3]});
  const GameResult r2 = play_game(table_rules("tenhou"), key, {&a2[0], &a2[1], &a2[2], &a2[3]});
  ASSERT_EQ(r1.events.size(), r2.events.size());
  EXPECT_TRUE(r1.events == r2.events);
  const GameResult r3 = play_game(table_rules("tenhou"), game_key(MasterSeed{99}, 4), {&a2[0], &a2[1], &a2[2], &a2[3]});
  EXPECT_FALSE(r1.events == r3.events);
}

// Table::branch: a copy of a game at every 50th decision, answered as the game goes on, plays the
// same events to the game's end and ends with the same scores, also after the table it was
// copied from is gone (its views read the copy's rules).
TEST(RandomGames, ABranchAnsweredAlikePlaysTheSameGame) {
  const GameKey key = game_key(MasterSeed{99}, 7);
  std::array<RandomAgent, kNumSeats> agents;
  for (int s = 0; s < kNumSeats; ++s) agents[ix(s)].start_game(Seat(s), key);
  auto table = std::make_unique<Table>(table_rules("tenhou"), key);
  struct Branch {
    std::unique_ptr<Table> table;
    std::array<RandomAgent, kNumSeats> agents;
    std::vector<Event> seen;
    std::size_t from = 0;
  };
  std::vector<std::unique_ptr<Branch>> branches;
  int decisions = 0;
  while (!table->done()) {
    const auto pending = table->pending();
    if (++decisions % 50 == 0) {
      auto b = std::make_unique<Branch>();
      b->agents = agents;
      b->from = table->events().size();
      Branch* raw = b.get();
      b->table = table->branch([raw](const Table&, const Event& e) { raw->seen.push_back(e); });
      EXPECT_TRUE(b->table->events().empty());  // a branch keeps no record
      branches.push_back(std::move(b));
    }
    for (const Decision& d : pending) table->act(d.seat, agents[ix(d.seat.index())].act(table->view(d.seat), d));
  }
  ASSERT_GT(branches.size(), 5u);
  const std::vector<Event> events = table->events();
  const Scores final = table->final_scores();
  table.reset();
  for (auto& b : branches) {
    Table& t = *b->table;
    while (!t.done()) {
      const auto pending = t.pending();
      for (const Decision& d : pending) t.act(d.seat, b->agents[ix(d.seat.index())].act(t.view(d.seat), d));
    }
    ASSERT_EQ(b->seen.size(), events.size() - b->from);
    EXPECT_TRUE(std::equal(b->seen.begin(), b->seen.end(), events.begin() + static_cast<std::ptrdiff_t>(b->from)));
    EXPECT_EQ(t.final_scores(), final);
  }
}

// The table block of the rules is what the table does: the same seeded random games under rules
// that differ in one table key each. Random play rarely wins big, so the tobi pair starts at
// 2,000 points, where a few noten payments go below 0.
TEST(RandomGames, TableRulesDecideHowGamesEnd) {
  struct Seen {
    int west = 0;            // games that reached the West round
    int ended_below_0 = 0;   // games whose final scores hold one below 0
    int played_below_0 = 0;  // games with a kyoku started while a score was below 0
  };
  auto run = [](const TableRules& rules) {
    Seen seen;
    std::array<RandomAgent, kNumSeats> a;
    for (int g = 0; g < 300; ++g) {
      const GameResult r = play_game(rules, game_key(MasterSeed{17}, static_cast<std::uint64_t>(g)), {&a[0], &a[1], &a[2], &a[3]});
      bool west = false, below = false;
      for (const Event& e : r.events) {
        if (e.type != EventType::start_kyoku) continue;
        west = west || e.bakaze.index() == 29;  // W
        for (std::int32_t sc : e.scores) below = below || sc < 0;
      }
      seen.west += west;
      seen.played_below_0 += below;
      for (std::int32_t sc : r.final_scores) seen.ended_below_0 += sc < 0;
    }
    return seen;
  };
  const TableRules& tenhou = table_rules("tenhou");
  TableRules no_west = tenhou;
  no_west.extension_rounds = 0;
  const Seen with_west = run(tenhou), without_west = run(no_west);
  EXPECT_GT(with_west.west, 0);
  EXPECT_EQ(without_west.west, 0);

  TableRules poor = tenhou;
  poor.start_score = 2000;
  TableRules poor_no_tobi = poor;
  poor_no_tobi.tobi = false;
  const Seen tobi = run(poor), no_tobi = run(poor_no_tobi);
  EXPECT_GT(tobi.ended_below_0, 0);
  EXPECT_EQ(tobi.played_below_0, 0);  // the game ends as soon as a score goes below 0
  EXPECT_GT(no_tobi.played_below_0, 0);
  RecordProperty("west_games", with_west.west);
  RecordProperty("tobi_games", tobi.ended_below_0);
  RecordProperty("played_on_below_0", no_tobi.played_below_0);
}

TEST(RandomGames, TsumogiriAgentsPlayWholeGames) {
  std::array<TsumogiriAgent, kNumSeats> a;
  for (int g = 0; g < 20; ++g) {
    const GameResult r = play_game(table_rules("tenhou"), game_key(MasterSeed{5}, static_cast<std::uint64_t>(g)),
                                   {&a[0], &a[1], &a[2], &a[3]});
    data::GameLog log;
    log.events = r.events;
    const data::ReplayReport rep = data::check_game(log, table_rules("tenhou"), "tsumogiri game");
    ASSERT_EQ(rep.status, data::ReplayStatus::pass) << rep.message;
  }
}

}  // namespace
}  // namespace hydra::game
