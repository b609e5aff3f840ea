// hydra review (review/review.hpp, docs/REVIEW.md), torch-free: the page built from a decision
// list written by hand (entries, summary, escaping, nothing external), and the review of real
// games against the checkpoint agent driven one decision at a time with the test policy.

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "agent_replay.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/text.hpp"
#include "hydra/data/convert.hpp"
#include "hydra/review/review.hpp"
#include "hydra/selfplay/policy.hpp"
#include "hydra/selfplay/search.hpp"
#include "testdata.hpp"
#include "hydra/common/index.hpp"

namespace hydra::review {
namespace {

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

// The JSON the page embeds, parsed back.
nlohmann::json embedded(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"review-data\">";
  const std::size_t a = page.find(open);
  EXPECT_NE(a, std::string::npos);
  const std::size_t b = page.find("</script>", a);
  return nlohmann::json::parse(page.substr(a + open.size(), b - a - open.size()));
}

Decision decision(int seat, int kyoku, int taken, std::vector<Choice> choices, float value) {
  Decision d;
  d.seat = seat;
  d.kyoku = kyoku;
  d.turn = 1;
  d.phase = "turn";
  d.taken = taken;
  d.taken_label = action_label(taken, false);
  d.choices = std::move(choices);
  d.agent = d.choices.front().action;
  for (const Choice& c : d.choices)
    if (c.action == taken) d.taken_prob = c.prob;
  d.value = value;
  d.table.hand = {"1m", "2m", "3m"};
  d.table.dora = {"5pr"};
  return d;
}

Review hand_review() {
  Review r;
  r.game = "game.xml";
  r.names = {"A", "B", "C", "D"};
  r.model = "m.ckpt";
  r.model_step = 42;
  r.seats = {0};
  r.kyoku = {{"E1-0", {25000, 25000, 25000, 25000}, "ryukyoku"}, {"E2-0", {25000, 25000, 25000, 25000}, "tsumo by 1 +4000"}};
  r.final_points = {3, 1, -1, -3};
  // Agrees (discard 1m at 60%), then two disagreements: a gap of 0.7 - 0.1 and of 0.5 - 0.4.
  r.decisions.push_back(decision(0, 0, 0, {{0, "discard 1m", 0.6F}, {1, "discard 2m", 0.4F}}, 0.25F));
  r.decisions.push_back(decision(0, 1, 2, {{1, "discard 2m", 0.7F}, {0, "discard 1m", 0.2F}, {2, "discard 3m", 0.1F}}, -0.5F));
  r.decisions.push_back(decision(0, 1, 37, {{45, "pass", 0.5F}, {37, "riichi", 0.4F}, {1, "discard 2m", 0.1F}}, 1.0F));
  return r;
}

TEST(ReviewPage, OneEntryPerDecisionAndTheSummaryByHand) {
  const Review r = hand_review();
  const Summary s = summarize(r);
  EXPECT_EQ(s.decisions, 3);
  EXPECT_EQ(s.agreed, 1);
  const std::string page = render_page(r);
  const nlohmann::json j = embedded(page);
  ASSERT_EQ(j["decisions"].size(), 3U);
  EXPECT_EQ(j["summary"]["decisions"], 3);
  EXPECT_EQ(j["summary"]["agreed"], 1);
  EXPECT_DOUBLE_EQ(j["summary"]["agreement"].get<double>(), 0.3333);
  // Largest gap first: decision 1 (0.7 - 0.1), then decision 2 (0.5 - 0.4).
  EXPECT_EQ(j["summary"]["largest_disagreements"], nlohmann::json::array({1, 2}));
  // The value at the seat's first decision of each kyoku; other seats null.
  EXPECT_DOUBLE_EQ(j["summary"]["kyoku_values"][0][0].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(j["summary"]["kyoku_values"][1][0].get<double>(), -0.5);
  EXPECT_TRUE(j["summary"]["kyoku_values"][1][1].is_null());
  EXPECT_DOUBLE_EQ(j["summary"]["seats"][0]["mean_value"].get<double>(), 0.25);
  EXPECT_EQ(j["summary"]["seats"][0]["final_points"], 3);
  const nlohmann::json& d1 = j["decisions"][1];
  EXPECT_EQ(d1["taken"], 2);
  EXPECT_EQ(d1["agent"], 1);
  EXPECT_DOUBLE_EQ(d1["taken_prob"].get<double>(), 0.1);
  EXPECT_EQ(d1["choices"][0], nlohmann::json::array({1, "discard 2m", 0.7}));
  EXPECT_EQ(j["decisions"][0]["table"]["dora"], nlohmann::json::array({"5pr"}));
  EXPECT_EQ(j["step"], 42);
}

TEST(ReviewPage, EscapesScriptEndsAndInvalidUtf8) {
  Review r = hand_review();
  r.game = "x</script><script>alert(1)</script><!--";
  r.names[1] = "\xff\xfe<b>";
  const std::string page = render_page(r);
  EXPECT_EQ(count(page, "</script>"), 2U);  // the data and the page's own script
  EXPECT_EQ(count(page, "<script"), 2U);
  EXPECT_EQ(page.find("<!--"), std::string::npos);
  EXPECT_NE(page.find("<title>hydra review: x&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!--</title>"), std::string::npos);
  const nlohmann::json j = embedded(page);
  EXPECT_EQ(j["game"], r.game);
  EXPECT_EQ(j["names"][1], "\xEF\xBF\xBD\xEF\xBF\xBD<b>");
  EXPECT_TRUE(text::valid_utf8(page));
  EXPECT_EQ(script_json(nlohmann::ordered_json("</script>")), "\"\\u003c/script>\"");
}

TEST(ReviewPage, SelfContainedWithAPolicyThatForbidsLoading) {
  const std::string page = render_page(hand_review());
  EXPECT_NE(page.find("content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\""),
            std::string::npos);
  for (const char* external : {"http:", "https:", "src=", "href=", "@import", "url(", "<link", "<img", "<iframe"})
    EXPECT_EQ(page.find(external), std::string::npos) << external;
}

TEST(ReviewPage, ActionLabels) {
  EXPECT_EQ(action_label(4, false), "discard 5m");
  EXPECT_EQ(action_label(34, false), "discard 5mr");
  EXPECT_EQ(action_label(37, false), "riichi");
  EXPECT_EQ(action_label(45, false), "pass");
  EXPECT_EQ(action_label(27, true), "kan E");
}

const game::TableRules& rules() { return game::table_rules("tenhou"); }

TEST(ReviewGame, TopActionIsTheCheckpointAgentsActionAtEveryDecision) {
  HYDRA_REQUIRE_TESTDATA(dir, "tenhou_xml");
  const auto files = hydra::testing::files_ending_with(dir, ".xml");
  ASSERT_FALSE(files.empty());
  auto policy = std::make_shared<selfplay::LinearTestPolicy>(11);
  int checked = 0, disagreements = 0;
  for (std::size_t f = 0; f < std::min<std::size_t>(files.size(), 3); ++f) {
    const data::GameLog log = data::read_log(files[f]);
    Options o;
    o.batch = 64;  // several batches per game
    const Review r = review_game(log, files[f].string(), rules(), *policy, o);
    const auto expected = hydra::testing::agent_decisions(log, rules(), policy, {0, 1, 2, 3});
    ASSERT_EQ(r.decisions.size(), expected.size()) << files[f];
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const Decision& d = r.decisions[i];
      const auto& e = expected[i];
      ASSERT_EQ(d.seat, e.seat) << files[f] << " decision " << i;
      EXPECT_EQ(d.agent, e.action) << files[f] << " decision " << i;
      EXPECT_EQ(d.choices.front().action, e.action) << files[f] << " decision " << i;
      EXPECT_EQ(d.taken, e.logged) << files[f] << " decision " << i;
      EXPECT_EQ(d.choices.front().prob, e.probs[ix(e.action)]);
      EXPECT_EQ(d.taken_prob, e.probs[ix(e.logged)]);
      EXPECT_EQ(d.value, e.value);
      float sum = 0;
      for (const Choice& c : d.choices) sum += c.prob;
      EXPECT_NEAR(sum, 1.0F, 1e-4F);
      disagreements += d.taken != d.agent ? 1 : 0;
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
  EXPECT_GT(disagreements, 0);
}

TEST(ReviewGame, OneSeatOneKyokuAndTheTableAsTheSeatSawIt) {
  HYDRA_REQUIRE_TESTDATA(dir, "tenhou_xml");
  const auto files = hydra::testing::files_ending_with(dir, ".xml");
  ASSERT_FALSE(files.empty());
  const data::GameLog log = data::read_log(files[0]);
  selfplay::LinearTestPolicy policy(3);
  Options all;
  const Review full = review_game(log, "g", rules(), policy, all);
  Options seat2;
  seat2.seats = {2};
  const Review r2 = review_game(log, "g", rules(), policy, seat2);
  std::vector<const Decision*> of2;
  for (const Decision& d : full.decisions)
    if (d.seat == 2) of2.push_back(&d);
  ASSERT_EQ(r2.decisions.size(), of2.size());
  for (std::size_t i = 0; i < of2.size(); ++i) {
    EXPECT_EQ(r2.decisions[i].agent, of2[i]->agent);
    EXPECT_EQ(r2.decisions[i].event, of2[i]->event);
  }
  const int n = kyoku_count(log);
  ASSERT_GT(n, 4);
  std::size_t sum = 0;
  for (int k = 0; k < n; ++k) {
    Options one;
    one.kyoku = k;
    const Review rk = review_game(log, "g", rules(), policy, one);
    for (const Decision& d : rk.decisions) EXPECT_EQ(d.kyoku, k);
    sum += rk.decisions.size();
  }
  EXPECT_EQ(sum, full.decisions.size());
  Options past;
  past.kyoku = n;
  try {
    (void)review_game(log, "g.xml", rules(), policy, past);
    ADD_FAILURE() << "a kyoku past the game's was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("it has " + std::to_string(n) + " kyoku"), std::string::npos) << e.what();
  }
  // The seat's hand: 13 tiles less three per meld, one more (the draw, or after a call) on its turn.
  for (const Decision& d : full.decisions) {
    const Table& t = d.table;
    const int closed = static_cast<int>(t.hand.size()) + (t.drawn.empty() ? 0 : 1);
    const int melds = static_cast<int>(t.melds[ix(d.seat)].size());
    const bool respond = d.phase == "response" || d.phase == "chankan";
    EXPECT_EQ(closed + 3 * melds, respond ? 13 : 14) << d.phase << " decision at event " << d.event;
    EXPECT_EQ(respond, !t.offered.empty());
    EXPECT_GE(t.dora.size(), 1U);
    EXPECT_EQ(t.bakaze, full.kyoku[ix(d.kyoku)].label.substr(0, 1));
  }
}

// With a search (hydra review --model search:CKPT): the search rebuilds each decision's table from
// the real game's events as the seat saw them (game/rebuild.hpp), so every decision with two
// likely actions is searched; its candidates start from the checkpoint agent's own choice, and
// what it plays is the candidate whose mean is highest when that beats the argmax's (sigmas 0).
TEST(ReviewGame, WithASearchEveryDecisionWithTwoLikelyActionsIsSearchedFromTheRealGamesEvents) {
  HYDRA_REQUIRE_TESTDATA(dir, "tenhou_xml");
  const auto files = hydra::testing::files_ending_with(dir, ".xml");
  ASSERT_FALSE(files.empty());
  const data::GameLog log = data::read_log(files[0]);
  auto policy = std::make_shared<selfplay::LinearTestPolicy>(3);
  selfplay::SearchOptions so;
  so.walls = 2;
  so.threshold = 0.2;
  so.candidates = 2;
  so.sigmas = 0;
  auto counters = std::make_shared<selfplay::SearchCounters>();
  Options o;
  o.seats = {1};
  o.searcher = [&] {
    return std::make_unique<selfplay::SearchAgent>(policy, policy, rules(), "search:test", so, counters);
  };
  const Review r = review_game(log, "g", rules(), *policy, o);
  int likely = 0, searched = 0;
  for (const Decision& d : r.decisions) {
    const bool two = d.choices.size() >= 2 && d.choices[1].prob >= so.threshold;
    likely += two ? 1 : 0;
    ASSERT_EQ(d.search.has_value(), two) << "decision at event " << d.event;
    if (!d.search) continue;
    ++searched;
    const auto& v = d.search->values;
    ASSERT_EQ(v.size(), 2U);
    EXPECT_EQ(v[0].first, d.agent);
    const int expected = v[1].second > v[0].second ? v[1].first : v[0].first;
    EXPECT_EQ(d.search->action, expected) << "decision at event " << d.event;
  }
  EXPECT_GT(searched, 10);
  EXPECT_EQ(counters->searched.load(), searched);
  // The same review again: the same searches.
  const Review again = review_game(log, "g", rules(), *policy, o);
  ASSERT_EQ(again.decisions.size(), r.decisions.size());
  for (std::size_t i = 0; i < r.decisions.size(); ++i) {
    ASSERT_EQ(again.decisions[i].search.has_value(), r.decisions[i].search.has_value());
    if (r.decisions[i].search) {
      EXPECT_EQ(again.decisions[i].search->action, r.decisions[i].search->action);
      EXPECT_EQ(again.decisions[i].search->values, r.decisions[i].search->values);
    }
  }
  // The page carries it.
  const nlohmann::json j = review_json(r);
  int shown = 0;
  for (const auto& d : j["decisions"]) shown += d.contains("search") ? 1 : 0;
  EXPECT_EQ(shown, searched);
}

TEST(ReviewGame, EveryFormatOfOneGameGivesTheSameDecisions) {
  HYDRA_REQUIRE_TESTDATA(dir, "tenhou_xml");
  const auto files = hydra::testing::files_ending_with(dir, ".xml");
  ASSERT_FALSE(files.empty());
  const std::filesystem::path mjai = dir.parent_path() / "mjai" / (files[0].stem().string() + ".json.gz");
  if (!std::filesystem::exists(mjai)) GTEST_SKIP() << mjai << " not found";
  selfplay::LinearTestPolicy policy(5);
  const Review a = review_game(data::read_log(files[0]), "xml", rules(), policy);
  const Review b = review_game(data::read_log(mjai), "mjai", rules(), policy);
  ASSERT_EQ(a.decisions.size(), b.decisions.size());
  for (std::size_t i = 0; i < a.decisions.size(); ++i) {
    EXPECT_EQ(a.decisions[i].taken, b.decisions[i].taken);
    EXPECT_EQ(a.decisions[i].agent, b.decisions[i].agent);
  }
}

}  // namespace
}  // namespace hydra::review
