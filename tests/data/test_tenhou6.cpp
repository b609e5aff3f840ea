#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

#include "hydra/data/tenhou.hpp"
#include "hydra/data/text_file.hpp"
#include "testdata.hpp"

namespace hydra::data {
namespace {

using game::Event;
using game::EventType;

// What tenhou.net/6 does not carry, taken from the XML conversion so the rest can be compared:
// the deal order (tenhou.net/6 sorts the hands), the fu of limit hands, and who was tenpai at a
// nagashi mangan; these files also anonymise the names ("Aさん").
void fill_gaps(GameLog& t6, const GameLog& xml) {
  t6.names = xml.names;
  const std::size_t n = std::min(t6.events.size(), xml.events.size());
  for (std::size_t i = 0; i < n; ++i) {
    Event& a = t6.events[i];
    const Event& b = xml.events[i];
    if (a.type != b.type) return;  // the comparison reports it
    if (a.type == EventType::start_kyoku) a.tehais = b.tehais;
    if (a.type == EventType::hora && a.fu == 0) a.fu = b.fu;
    if (a.type == EventType::ryukyoku && !a.detailed && b.reason == game::RyukyokuReason::nagashimangan) {
      a.detailed = true;
      a.tenpais = b.tenpais;
      a.tehais = b.tehais;
    }
  }
}

// The whole games that share a log id with the XML games give the same events.
TEST(Tenhou6, OverlappingGamesMatchTheXmlConversions) {
  HYDRA_REQUIRE_TESTDATA(dir, "tenhou6");
  int games = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    const auto xml = dir.parent_path() / "tenhou_xml" / (f.path().stem().string() + ".xml");
    if (!std::filesystem::exists(xml)) continue;
    SCOPED_TRACE(f.path().string());
    GameLog t6 = read_tenhou6(f.path());
    const GameLog from_xml = read_tenhou_xml(xml);
    fill_gaps(t6, from_xml);
    const auto diff = first_difference(t6, from_xml);
    EXPECT_FALSE(diff) << *diff;
    ++games;
  }
  EXPECT_EQ(games, 25);
}

// Every file converts; each game's last scores are its first scores plus every delta, and where
// the file records the game's end ("sc": score, points, ...) the final scores are sc's, which
// differ from that sum only by the riichi sticks left at the end, given to the top player.
// Files without "sc" do not record where the game ended.
TEST(Tenhou6, AllFilesConvertAndScoresAddUp) {
  HYDRA_REQUIRE_TESTDATA(dir, "tenhou6");
  int files = 0, with_sc = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    SCOPED_TRACE(f.path().string());
    const GameLog log = read_tenhou6(f.path());
    game::Scores sum{};
    bool first = true;
    for (const Event& e : log.events) {
      if (e.type == EventType::start_kyoku && first) {
        sum = e.scores;
        first = false;
      }
      if (e.type == EventType::reach_accepted || e.type == EventType::hora || e.type == EventType::ryukyoku)
        for (std::size_t p = 0; p < sum.size(); ++p) sum[p] += e.deltas[p];
    }
    const game::Scores& end = log.events.back().scores;
    const std::string text = read_text_file(f.path());
    const bool one_object = text.find('\n') == std::string::npos || text.find('\n') == text.size() - 1;
    const bool has_sc = one_object && nlohmann::json::parse(text).contains("sc");
    EXPECT_EQ(log.end_recorded, has_sc);
    EXPECT_EQ(log.final_scores_recorded, has_sc);
    if (!has_sc) {
      EXPECT_EQ(end, sum);
    } else {
      const auto j = nlohmann::json::parse(text);
      int left = 0, seats = 0;
      for (std::size_t p = 0; p < end.size(); ++p) {
        EXPECT_EQ(end[p], static_cast<std::int32_t>(j["sc"][2 * p].get<double>()));
        left += end[p] - sum[p];
        seats += end[p] != sum[p] ? 1 : 0;
      }
      EXPECT_LE(seats, 1);
      EXPECT_EQ(left % 1000, 0);
      ++with_sc;
    }
    ++files;
  }
  EXPECT_EQ(files, 45);
  EXPECT_GT(with_sc, 3);
}

TEST(Tenhou6, UnsupportedRulesAndBrokenFilesSayWhy) {
  const std::string sanma = R"({"name":["a","b","c"],"rule":{"disp":"三鳳南喰赤","aka":1},"log":[]})";
  EXPECT_THROW(parse_tenhou6(sanma, "sanma.json"), UnsupportedRule);
  const std::string no_red = R"({"name":["a","b","c","d"],"rule":{"disp":"般南喰","aka":0},"log":[]})";
  try {
    parse_tenhou6(no_red, "nored.json");
    FAIL() << "accepted";
  } catch (const UnsupportedRule& e) {
    EXPECT_NE(std::string(e.what()).find("nored.json: unsupported rule: no red fives"), std::string::npos) << e.what();
  }
  try {
    parse_tenhou6("{\"log\":[]}\n{\"log\":[\n", "lines.json");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("lines.json:2: broken JSON"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hydra::data
