// extract_samples against real Tenhou games: every label is checked against what the log itself
// says (the logged event behind each action, the final scores, the tenpai list of exhaustive
// draws, the winning tile of every ron) and the sample count against the replay checker's count
// of decisions. The score context, ranks and permutation index against hand-computed values.

#include <algorithm>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "hydra/common/index.hpp"
#include "hydra/data/convert.hpp"
#include "hydra/data/dataset.hpp"
#include "hydra/data/replay.hpp"
#include "hydra/encoder/encoder.hpp"
#include "hydra/game/action.hpp"
#include "testdata.hpp"

namespace hydra::data {
namespace {

namespace fs = std::filesystem;
using game::Action;
using game::Event;
using game::EventType;

const game::TableRules& tenhou() { return game::table_rules("tenhou"); }

// The action a logged event is, computed here from the event alone (docs/ENGINE.md).
int expected_action(const Event& e) {
  switch (e.type) {
    case EventType::dahai:
      return e.pai.is_red() ? 34 + e.pai.type().index() / 9 : e.pai.type().index();
    case EventType::reach: return 37;
    case EventType::chi: {
      int below = 0;
      for (game::Pai p : e.consumed) below += p.type().index() < e.pai.type().index() ? 1 : 0;
      return 38 + below;
    }
    case EventType::pon: return 41;
    case EventType::daiminkan:
    case EventType::kakan:
    case EventType::ankan: return 42;
    case EventType::hora: return 43;
    case EventType::ryukyoku: return 44;
    default: return -1;
  }
}

// Rank of each seat from final scores, ties to the lower seat (Tenhou), by counting.
std::array<int, 4> ranks_of(const game::Scores& s) {
  std::array<int, 4> r{};
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      if (s[ix(b)] > s[ix(a)] || (s[ix(b)] == s[ix(a)] && b < a)) ++r[ix(a)];
  return r;
}

// The index of a rank tuple, by enumerating the permutations in lexicographic order.
int perm_index(const std::array<int, 4>& ranks) {
  std::array<int, 4> p{0, 1, 2, 3};
  int i = 0;
  do {
    if (p == ranks) return i;
    ++i;
  } while (std::next_permutation(p.begin(), p.end()));
  return -1;
}

struct Totals {
  long games = 0, samples = 0, passes = 0, ron_checks = 0, tenpai_checks = 0, kan_selects = 0;
};

void check_game_labels(const GameLog& log, const std::string& name, Totals& tot) {
  SampleBatch b;
  ExtractStats st;
  ASSERT_NO_THROW(extract_samples(log, name, b, tenhou(), &st)) << name;
  const ReplayReport r = check_game(log, tenhou(), name);
  ASSERT_EQ(r.status, ReplayStatus::pass) << r.message;
  const std::size_t n = b.size();
  ASSERT_EQ(st.sample_event.size(), n);
  ASSERT_EQ(st.sample_observed.size(), n);
  ASSERT_EQ(b.obs.size(), n * ix(encoder::kObsSize));
  // Replaying the events up to and including sample_observed gives the sample's observation
  // (what hydra review relies on to show the table and feed the checkpoint agent).
  {
    std::vector<std::unique_ptr<encoder::Observer>> seats;
    for (int s = 0; s < 4; ++s) seats.push_back(std::make_unique<encoder::Observer>(game::Seat(s), tenhou()));
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return st.sample_observed[x] < st.sample_observed[y]; });
    std::size_t next = 0;
    for (std::size_t j = 0; j < log.events.size() && next < n; ++j) {
      for (auto& o : seats) o->apply(log.events[j]);
      for (; next < n && st.sample_observed[order[next]] == static_cast<int>(j); ++next) {
        const std::size_t i = order[next];
        ASSERT_LE(st.sample_observed[i], st.sample_event[i]) << name << " sample " << i;
        const encoder::Obs& o = seats[ix(st.sample_seat[i])]->encode();
        ASSERT_TRUE(std::equal(o.v.begin(), o.v.end(), b.obs.begin() + static_cast<std::ptrdiff_t>(i * ix(encoder::kObsSize))))
            << name << " sample " << i << " observed after event " << st.sample_observed[i];
      }
    }
    ASSERT_EQ(next, n) << name;
  }
  ASSERT_EQ(b.legal.size(), n * ix(kSampleActions));
  ASSERT_EQ(b.danger.size(), n * ix(kSampleDanger));
  // Every logged decision is counted once, and is a sample unless it was the only legal move.
  EXPECT_EQ(st.actions, r.decisions) << name;
  EXPECT_EQ(static_cast<long>(n), st.actions - st.forced + st.passes + st.kan_selects) << name;
  EXPECT_LE(st.forced * 4, st.actions) << name;

  const bool whole = r.message.empty();  // a fragment has no final result to label with
  const Event& end = log.events.back();
  const std::array<int, 4> ranks = ranks_of(end.scores);
  const std::array<float, 4> points{3, 1, -1, -3};
  for (std::size_t i = 0; i < n; ++i) {
    const int a = static_cast<int>(b.action[i]);
    const int seat = st.sample_seat[i];
    const Event& e = log.events[ix(st.sample_event[i])];
    const std::uint8_t* legal = b.legal.data() + i * ix(kSampleActions);
    ASSERT_TRUE(a >= 0 && a < kSampleActions);
    EXPECT_EQ(legal[ix(a)], 1) << name << " sample " << i;
    EXPECT_GE(std::accumulate(legal, legal + kSampleActions, 0), 2) << name << " sample " << i;
    const bool kan_select = b.type[i] == static_cast<std::uint8_t>(DecisionType::kan) && a < 34;
    if (a == Action::kPass) {
      EXPECT_FALSE(e.actor == game::Seat(seat) && expected_action(e) >= 0) << name << " sample " << i;
      ++tot.passes;
    } else if (kan_select) {
      EXPECT_EQ(expected_action(e), 42);
      const game::TileType t = e.type == EventType::ankan ? e.consumed[0].type() : e.pai.type();
      EXPECT_EQ(a, t.index());
      ++tot.kan_selects;
    } else {
      EXPECT_EQ(a, expected_action(e)) << name << " sample " << i << ": " << game::describe(e);
      if (e.type != EventType::ryukyoku) {
        EXPECT_EQ(e.actor, game::Seat(seat)) << name << " sample " << i;
      }
      EXPECT_EQ(b.type[i], static_cast<std::uint8_t>(decision_type(a)));
    }
    if (whole) {
      EXPECT_EQ(b.value[i], points[ix(ranks[ix(seat)])]) << name << " sample " << i;
      std::array<int, 4> rel{};
      for (int k = 0; k < 4; ++k) rel[ix(k)] = ranks[ix((seat + k) % 4)];
      EXPECT_EQ(b.grp[i], perm_index(rel)) << name << " sample " << i;
    }
  }

  // Per seat, the index of its latest sample before each event.
  for (std::size_t j = 0; j < log.events.size(); ++j) {
    const Event& e = log.events[j];
    if (e.type == EventType::hora && e.actor != e.target) {
      // The discarder's last sample: when it is the deal-in itself, the winning tile is a
      // wait of the winner there.
      long last = -1;
      for (std::size_t i = 0; i < n; ++i)
        if (st.sample_seat[i] == e.target.index() && ix(st.sample_event[i]) < j) last = static_cast<long>(i);
      if (last < 0) continue;
      const Event& act = log.events[ix(st.sample_event[ix(static_cast<int>(last))])];
      const bool deal_in = (act.type == EventType::dahai || act.type == EventType::kakan) && act.actor == e.target &&
                           act.pai.type() == e.pai.type();
      if (!deal_in) continue;
      const int k = e.target.distance_to(e.actor) - 1;
      const std::size_t at = ix(static_cast<int>(last)) * ix(kSampleDanger) + ix(k * 34 + e.pai.type().index());
      EXPECT_EQ(b.danger[at], 1.0F) << name << " hora at event " << j;
      EXPECT_EQ(b.tenpai[ix(static_cast<int>(last)) * 3 + ix(k)], 1.0F) << name << " hora at event " << j;
      ++tot.ron_checks;
    }
    if (e.type == EventType::ryukyoku && e.detailed &&
        (e.reason == game::RyukyokuReason::fanpai || e.reason == game::RyukyokuReason::nagashimangan)) {
      // The kyoku's last sample: the opponents whose hands did not change after it show the
      // tenpai the draw lists.
      long last = -1;
      for (std::size_t i = 0; i < n; ++i)
        if (ix(st.sample_event[i]) < j) last = static_cast<long>(i);
      if (last < 0) continue;
      const std::size_t li = ix(static_cast<int>(last));
      const int seat = st.sample_seat[li];
      for (int k = 1; k < 4; ++k) {
        const game::Seat x((seat + k) % 4);
        bool changed = false;
        for (std::size_t m = ix(st.sample_event[li]); m < j; ++m) {
          const Event& f = log.events[m];
          if (f.actor == x && (f.type == EventType::chi || f.type == EventType::pon || f.type == EventType::daiminkan ||
                               f.type == EventType::kakan || f.type == EventType::ankan ||
                               (f.type == EventType::dahai && !f.tsumogiri)))
            changed = true;
          if (f.type == EventType::start_kyoku) changed = true;  // not the same kyoku
        }
        if (changed) continue;
        EXPECT_EQ(b.tenpai[li * 3 + ix(k - 1)], e.tenpais[ix(x.index())] ? 1.0F : 0.0F)
            << name << " ryukyoku at event " << j << " seat " << x.index();
        ++tot.tenpai_checks;
      }
    }
  }
  ++tot.games;
  tot.samples += static_cast<long>(n);
}

TEST(DatasetExtract, EveryMjaiGameLabelsMatchTheLog) {
  HYDRA_REQUIRE_TESTDATA(dir, "mjai");
  Totals tot;
  for (const auto& f : collect_log_files({dir})) check_game_labels(read_log(f), f.string(), tot);
  EXPECT_EQ(tot.games, 34);
  EXPECT_GT(tot.samples, 20000);
  EXPECT_GT(tot.passes, 1000);
  EXPECT_GT(tot.ron_checks, 100);
  EXPECT_GT(tot.tenpai_checks, 30);
  std::cout << tot.games << " games, " << tot.samples << " samples, " << tot.passes << " passes, " << tot.kan_selects
            << " kan selects, " << tot.ron_checks << " ron danger checks, " << tot.tenpai_checks << " tenpai checks\n";
}

TEST(DatasetExtract, EveryTenhouGameLabelsMatchTheLog) {
  HYDRA_REQUIRE_TESTDATA(dir, "tenhou_xml");
  Totals tot;
  for (const auto& f : collect_log_files({dir})) check_game_labels(read_log(f), f.string(), tot);
  EXPECT_EQ(tot.games, 34);
  EXPECT_GT(tot.ron_checks, 100);
}

TEST(DatasetExtract, Tenhou6GamesThatReplayLabelsMatchTheLog) {
  HYDRA_REQUIRE_TESTDATA(dir, "tenhou6");
  Totals tot;
  for (const auto& f : collect_log_files({dir})) {
    GameLog log;
    try {
      log = read_log(f);
    } catch (const Error&) {
      continue;  // the readers' own tests cover the files they reject
    }
    if (check_game(log, tenhou(), f.string()).status != ReplayStatus::pass) continue;
    check_game_labels(log, f.string(), tot);
  }
  EXPECT_GT(tot.games, 30);
}

TEST(DatasetExtract, IllegalEventThrowsNamingTheEventAndLeavesTheBatch) {
  HYDRA_REQUIRE_TESTDATA(dir, "mjai");
  GameLog log = read_log(collect_log_files({dir}).front());
  SampleBatch b;
  extract_samples(log, "good", b);
  const std::size_t good = b.size();
  // The first discard becomes another tile: illegal there if the player does not hold it, else
  // the next event (a call of the logged tile, or the next draw's turn) no longer fits.
  for (std::size_t i = 0; i < log.events.size(); ++i) {
    Event& e = log.events[i];
    if (e.type != EventType::dahai) continue;
    e.pai = game::Pai(game::TileType(e.pai.type().index() == 0 ? 1 : 0));
    e.tsumogiri = false;
    try {
      extract_samples(log, "bad.json", b);
      FAIL() << "no error";
    } catch (const Error& err) {
      const std::string what = err.what();
      ASSERT_EQ(what.rfind("bad.json:", 0), 0U) << what;
      const std::size_t at = std::stoul(what.substr(9));
      EXPECT_GE(at, i + 1) << what;
      EXPECT_LE(at, i + 3) << what;
    }
    break;
  }
  EXPECT_EQ(b.size(), good);
  EXPECT_EQ(b.obs.size(), good * ix(encoder::kObsSize));
}

TEST(DatasetExtract, DecisionTypes) {
  EXPECT_EQ(decision_type(0), DecisionType::discard);
  EXPECT_EQ(decision_type(36), DecisionType::discard);
  EXPECT_EQ(decision_type(37), DecisionType::riichi);
  EXPECT_EQ(decision_type(39), DecisionType::chi);
  EXPECT_EQ(decision_type(41), DecisionType::pon);
  EXPECT_EQ(decision_type(42), DecisionType::kan);
  EXPECT_EQ(decision_type(43), DecisionType::agari);
  EXPECT_EQ(decision_type(44), DecisionType::pass);
  EXPECT_EQ(decision_type(45), DecisionType::pass);
  EXPECT_EQ(to_string(DecisionType::riichi), "riichi");
}

}  // namespace
}  // namespace hydra::data
