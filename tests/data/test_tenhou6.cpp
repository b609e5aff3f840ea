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

// Every file converts; each game's final scores are its first scores plus every delta, and where
// the file records the final scores itself ("sc": score, points, ...) they agree.
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
    EXPECT_EQ(log.events.back().scores, sum);
    const std::string text = read_text_file(f.path());
    if (text.find('\n') == std::string::npos || text.find('\n') == text.size() - 1) {
      const auto j = nlohmann::json::parse(text);
      if (j.contains("sc")) {
        // Sticks left on the table at the end go to the top player in Tenhou's final scores.
        game::Scores sc{};
        for (std::size_t p = 0; p < sc.size(); ++p) sc[p] = static_cast<std::int32_t>(j["sc"][2 * p].get<double>());
        int left = 0;
        for (std::size_t p = 0; p < sc.size(); ++p) left += sc[p] - log.events.back().scores[p];
        for (std::size_t p = 0; p < sc.size(); ++p)
          if (sc[p] != log.events.back().scores[p]) {
            EXPECT_EQ(sc[p] - log.events.back().scores[p], left);
          }
        ++with_sc;
      }
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
