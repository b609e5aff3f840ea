// Rules presets: the files in configs/rules/ are what the binary embeds, each preset says what
// the rules of its platform are, and the reader is strict (missing, unknown and mistyped keys are
// errors that name the file and the key).

#include <gtest/gtest.h>

#include <filesystem>

#include "hydra/common/error.hpp"
#include "hydra/game/rules.hpp"

namespace hydra::game {
namespace {

const std::string kTenhouText = R"({
  "name": "custom",
  "scoring": {
    "kuitan": true, "kiriage_mangan": false, "kazoe_yakuman": true, "yakuman_stack": true,
    "double_kokushi_13": false, "double_suuankou_tanki": false, "double_junsei_chuuren": false,
    "double_daisuushii": false, "double_wind_pair_fu": 4
  }
})";

TEST(Rules, PresetsAreTheFilesInConfigs) {
  EXPECT_EQ(rules_preset_names(), (std::vector<std::string>{"mahjongsoul", "tenhou"}));
  const std::filesystem::path dir = HYDRA_RULES_DIR;
  for (const auto& name : rules_preset_names()) {
    const Rules file = load_rules(dir / (name + ".json"));
    EXPECT_EQ(file.name, name);
    EXPECT_EQ(file.scoring, rules_preset(name).scoring) << name;
  }
}

TEST(Rules, TenhouAndMahjongSoulDifferInDoubleYakumanOnly) {
  const ScoringRules& t = rules_preset("tenhou").scoring;
  const ScoringRules& m = rules_preset("mahjongsoul").scoring;
  // Tenhou: kuitan, no kiriage, kazoe yakuman, stacked yakuman, no double yakuman, 4-fu
  // double-wind pair.
  EXPECT_TRUE(t.kuitan);
  EXPECT_FALSE(t.kiriage_mangan);
  EXPECT_TRUE(t.kazoe_yakuman);
  EXPECT_TRUE(t.yakuman_stack);
  EXPECT_FALSE(t.double_kokushi_13 || t.double_suuankou_tanki || t.double_junsei_chuuren || t.double_daisuushii);
  EXPECT_EQ(t.double_wind_pair_fu, 4);
  EXPECT_TRUE(m.double_kokushi_13 && m.double_suuankou_tanki && m.double_junsei_chuuren && m.double_daisuushii);
  ScoringRules m_without_doubles = m;
  m_without_doubles.double_kokushi_13 = m_without_doubles.double_suuankou_tanki = false;
  m_without_doubles.double_junsei_chuuren = m_without_doubles.double_daisuushii = false;
  EXPECT_EQ(m_without_doubles, t);
}

TEST(Rules, ParseIsStrict) {
  EXPECT_EQ(parse_rules(kTenhouText, "custom.json").scoring, rules_preset("tenhou").scoring);
  auto expect_error = [](const std::string& text, const std::string& fragment) {
    try {
      parse_rules(text, "custom.json");
      ADD_FAILURE() << "no error for " << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("custom.json"), std::string::npos) << e.what();
    }
  };
  std::string missing = kTenhouText;
  missing.replace(missing.find("\"kuitan\": true, "), 16, "");
  expect_error(missing, "scoring.kuitan: missing");
  std::string unknown = kTenhouText;
  unknown.replace(unknown.find("\"kuitan\""), 8, "\"kuitan\": true, \"renhou\"");
  expect_error(unknown, "scoring.renhou: unknown key");
  std::string mistyped = kTenhouText;
  mistyped.replace(mistyped.find("\"kuitan\": true"), 14, "\"kuitan\": 1");
  expect_error(mistyped, "scoring.kuitan: expected true or false");
  std::string fu = kTenhouText;
  fu.replace(fu.find("\"double_wind_pair_fu\": 4"), 24, "\"double_wind_pair_fu\": 3");
  expect_error(fu, "must be 2 or 4");
  expect_error("{\"name\": \"x\"}", "scoring");
  expect_error("[1, 2", "custom.json");
}

TEST(Rules, NamesAndFiles) {
  EXPECT_EQ(rules_from_name_or_file("tenhou").name, "tenhou");
  EXPECT_EQ(rules_from_name_or_file(std::string(HYDRA_RULES_DIR) + "/mahjongsoul.json").name, "mahjongsoul");
  try {
    rules_preset("wrc");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("mahjongsoul, tenhou"), std::string::npos) << e.what();
  }
  EXPECT_THROW(rules_from_name_or_file("/nonexistent/rules.json"), Error);
}

}  // namespace
}  // namespace hydra::game
