// Rules presets: the files in configs/rules/ are what the binary embeds, each preset says what
// the rules of its platform are, and the reader is strict (missing, unknown and mistyped keys are
// errors that name the file and the key).

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <tuple>

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
  },
  "table": {
    "length": "hanchan", "start_score": 25000, "target_score": 30000, "extension_rounds": 1,
    "red_fives": true,
    "tobi": true, "agari_yame": true, "tenpai_yame": true, "triple_ron_draw": true,
    "kokushi_ankan_chankan": false, "pao": true, "sticks_to_top": true, "oka": 20000,
    "uma_train": [3, 1, -1, -3], "uma_eval": [90, 45, 0, -135]
  }
})";

// `text` with the first occurrence of `from` replaced by `to`.
std::string edit(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  if (at == std::string::npos) ADD_FAILURE() << "no '" << from << "' in the text";
  else text.replace(at, from.size(), to);
  return text;
}

TEST(Rules, PresetsAreTheFilesInConfigs) {
  EXPECT_EQ(rules_preset_names(), (std::vector<std::string>{"mahjongsoul", "tenhou", "tenhou-2009", "tenhou-2009-tonpuusen",
                                                            "tenhou-kyoku", "tenhou-tonpuusen"}));
  const std::filesystem::path dir = HYDRA_RULES_DIR;
  for (const auto& name : rules_preset_names()) {
    const TableRules file = load_rules(dir / (name + ".json"));
    EXPECT_EQ(file.name, name);
    EXPECT_TRUE(file == rules_preset(name)) << name;
  }
}

// Spec section 1 (Tenhou houou, 4-player hanchan), value by value.
TEST(Rules, TenhouIsTheSpecsTable) {
  const TableRules& t = rules_preset("tenhou");
  EXPECT_EQ(t.length, GameLength::hanchan);
  EXPECT_EQ(t.start_score, 25000);
  EXPECT_EQ(t.target_score, 30000);
  EXPECT_EQ(t.oka, 20000);  // (30,000 - 25,000) x 4 to first
  EXPECT_EQ(t.uma_train, (std::array<int, 4>{3, 1, -1, -3}));
  EXPECT_EQ(t.uma_eval, (std::array<int, 4>{90, 45, 0, -135}));
  EXPECT_EQ(t.extension_rounds, 1);  // West round when nobody reached 30,000, and no further
  EXPECT_TRUE(t.red_fives);
  EXPECT_TRUE(t.tobi);
  EXPECT_TRUE(t.agari_yame);
  EXPECT_TRUE(t.tenpai_yame);       // the all-last dealer tenpai and top with >= 30,000 ends it
  EXPECT_TRUE(t.triple_ron_draw);   // sanchahou
  EXPECT_FALSE(t.kokushi_ankan_chankan);
  EXPECT_TRUE(t.pao);
  EXPECT_TRUE(t.sticks_to_top);
  EXPECT_EQ(t.last_round(), 7);     // South 4
  EXPECT_EQ(t.final_round(), 11);   // West 4
}

TEST(Rules, TenhouLengthsDifferInLengthOnly) {
  const TableRules& hanchan = rules_preset("tenhou");
  for (const auto& [name, length, last, final_round] :
       {std::tuple{"tenhou-tonpuusen", GameLength::tonpuusen, 3, 7}, std::tuple{"tenhou-kyoku", GameLength::one_kyoku, 0, 0}}) {
    TableRules r = rules_preset(name);
    EXPECT_EQ(r.length, length) << name;
    EXPECT_EQ(r.last_round(), last) << name;
    EXPECT_EQ(r.final_round(), final_round) << name;
    r.name = hanchan.name;
    r.length = hanchan.length;
    EXPECT_TRUE(r == hanchan) << name;
  }
}

// Tenhou's rules of March 2009 (docs/RULES.md "Tenhou's rules by era"): no tenpai-yame, and the
// extension goes on past the next wind round (to North 4 at the latest).
TEST(Rules, Tenhou2009DiffersInTenpaiYameAndTheExtensionOnly) {
  for (const auto& [old_name, new_name, last] :
       {std::tuple{"tenhou-2009", "tenhou", 7}, std::tuple{"tenhou-2009-tonpuusen", "tenhou-tonpuusen", 3}}) {
    TableRules old_rules = rules_preset(old_name);
    const TableRules& today = rules_preset(new_name);
    EXPECT_FALSE(old_rules.tenpai_yame) << old_name;
    EXPECT_TRUE(old_rules.agari_yame) << old_name;
    EXPECT_EQ(old_rules.extension_rounds, 3) << old_name;
    EXPECT_EQ(old_rules.last_round(), last) << old_name;
    EXPECT_EQ(old_rules.final_round(), 15) << old_name;  // North 4
    old_rules.name = today.name;
    old_rules.tenpai_yame = today.tenpai_yame;
    old_rules.extension_rounds = today.extension_rounds;
    EXPECT_TRUE(old_rules == today) << old_name;  // and nothing else differs
  }
  // A tonpuusen whose extension may last two wind rounds ends after West 4.
  TableRules two = rules_preset("tenhou-tonpuusen");
  two.extension_rounds = 2;
  EXPECT_EQ(two.final_round(), 11);
  two.extension_rounds = 0;
  EXPECT_EQ(two.final_round(), 3);
}

// "+no-red" and "+no-kuitan" name a preset (or file) with those table options: Tenhou's lobbies
// without red fives or without open tanyao.
TEST(Rules, VariantsWithoutRedFivesOrKuitan) {
  const TableRules& base = rules_preset("tenhou-2009-tonpuusen");
  const TableRules& no_red = table_rules("tenhou-2009-tonpuusen+no-red");
  EXPECT_EQ(no_red.name, "tenhou-2009-tonpuusen+no-red");
  EXPECT_FALSE(no_red.red_fives);
  EXPECT_TRUE(no_red.scoring.kuitan);
  const TableRules& both = table_rules("tenhou-2009-tonpuusen+no-red+no-kuitan");
  EXPECT_FALSE(both.red_fives);
  EXPECT_FALSE(both.scoring.kuitan);
  EXPECT_EQ(both.name, "tenhou-2009-tonpuusen+no-red+no-kuitan");
  const TableRules& swapped = table_rules("tenhou-2009-tonpuusen+no-kuitan+no-red");
  EXPECT_EQ(&table_rules("tenhou-2009-tonpuusen+no-kuitan+no-red"), &swapped);  // made once, then looked up
  EXPECT_TRUE(swapped == both);  // either order
  EXPECT_EQ(&table_rules(both.name), &both);
  TableRules rest = both;
  rest.name = base.name;
  rest.red_fives = true;
  rest.scoring.kuitan = true;
  EXPECT_TRUE(rest == base);
  EXPECT_EQ(rules_variant_name(base, false, true), "tenhou-2009-tonpuusen+no-red");
  EXPECT_EQ(rules_variant_name(base, true, true), "tenhou-2009-tonpuusen");
  EXPECT_EQ(rules_variant_name(no_red, false, false), "tenhou-2009-tonpuusen+no-red+no-kuitan");
  const std::string file = std::string(HYDRA_RULES_DIR) + "/mahjongsoul.json";
  EXPECT_FALSE(table_rules(file + "+no-red").red_fives);
  EXPECT_EQ(table_rules(file + "+no-red").name, "mahjongsoul+no-red");
  EXPECT_TRUE(table_rules("tenhou+no-red+no-red") == table_rules("tenhou+no-red"));
  EXPECT_THROW(table_rules("+no-red"), Error);
  EXPECT_THROW(table_rules("wrc+no-red"), Error);
}

TEST(Rules, TenhouAndMahjongSoulDifferWhereTheSpecSays) {
  const TableRules& t = rules_preset("tenhou");
  const TableRules& m = rules_preset("mahjongsoul");
  // Tenhou: kuitan, no kiriage, kazoe yakuman, stacked yakuman, no double yakuman, 4-fu
  // double-wind pair.
  EXPECT_TRUE(t.scoring.kuitan);
  EXPECT_FALSE(t.scoring.kiriage_mangan);
  EXPECT_TRUE(t.scoring.kazoe_yakuman);
  EXPECT_TRUE(t.scoring.yakuman_stack);
  EXPECT_FALSE(t.scoring.double_kokushi_13 || t.scoring.double_suuankou_tanki || t.scoring.double_junsei_chuuren ||
               t.scoring.double_daisuushii);
  EXPECT_EQ(t.scoring.double_wind_pair_fu, 4);
  // Mahjong Soul: double yakuman, triple ron pays all, kokushi robs an ankan, its uma.
  EXPECT_TRUE(m.scoring.double_kokushi_13 && m.scoring.double_suuankou_tanki && m.scoring.double_junsei_chuuren &&
              m.scoring.double_daisuushii);
  EXPECT_FALSE(m.triple_ron_draw);
  EXPECT_TRUE(m.kokushi_ankan_chankan);
  EXPECT_TRUE(m.tenpai_yame);
  EXPECT_EQ(m.uma_eval, (std::array<int, 4>{15, 5, -5, -15}));
  TableRules rest = m;
  rest.name = t.name;
  rest.scoring.double_kokushi_13 = rest.scoring.double_suuankou_tanki = false;
  rest.scoring.double_junsei_chuuren = rest.scoring.double_daisuushii = false;
  rest.triple_ron_draw = true;
  rest.kokushi_ankan_chankan = false;
  rest.uma_eval = t.uma_eval;
  EXPECT_TRUE(rest == t);  // and nothing else differs
}

TEST(Rules, ParseIsStrict) {
  TableRules custom = parse_rules(kTenhouText, "custom.json");
  EXPECT_EQ(custom.name, "custom");
  custom.name = "tenhou";
  EXPECT_TRUE(custom == rules_preset("tenhou"));
  auto expect_error = [](const std::string& text, const std::string& fragment) {
    try {
      parse_rules(text, "custom.json");
      ADD_FAILURE() << "no error for " << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("custom.json"), std::string::npos) << e.what();
    }
  };
  expect_error(edit(kTenhouText, "\"kuitan\": true, ", ""), "scoring.kuitan: missing");
  expect_error(edit(kTenhouText, "\"kuitan\"", "\"kuitan\": true, \"renhou\""), "scoring.renhou: unknown key");
  expect_error(edit(kTenhouText, "\"kuitan\": true", "\"kuitan\": 1"), "scoring.kuitan: expected true or false");
  expect_error(edit(kTenhouText, "\"double_wind_pair_fu\": 4", "\"double_wind_pair_fu\": 3"), "must be 2 or 4");
  expect_error(edit(kTenhouText, "\"tobi\": true, ", ""), "table.tobi: missing");
  expect_error(edit(kTenhouText, "\"tobi\"", "\"tobi\": true, \"renhou\""), "table.renhou: unknown key");
  expect_error(edit(kTenhouText, "\"hanchan\"", "\"east\""), "table.length: expected \"hanchan\", \"tonpuusen\" or \"kyoku\"");
  expect_error(edit(kTenhouText, "[3, 1, -1, -3]", "[3, 1, -1]"), "table.uma_train: expected 4 integers");
  expect_error(edit(kTenhouText, "[90, 45, 0, -135]", "[0, 45, 90, -135]"), "table.uma_eval: must not increase");
  expect_error(edit(kTenhouText, "\"target_score\": 30000", "\"target_score\": 20000"), "table.target_score");
  expect_error(edit(kTenhouText, "\"start_score\": 25000", "\"start_score\": 25050"), "table.start_score");
  expect_error(edit(kTenhouText, "\"oka\": 20000", "\"oka\": -1"), "table.oka");
  expect_error(edit(kTenhouText, "\"extension_rounds\": 1", "\"extension_rounds\": 4"), "table.extension_rounds: 4 must be in [0, 3]");
  expect_error(edit(kTenhouText, "\"extension_rounds\": 1", "\"extension\": true"), "table.extension_rounds: missing");
  expect_error(edit(kTenhouText, "\"red_fives\": true", "\"red_fives\": 3"), "table.red_fives: expected true or false");
  expect_error(edit(kTenhouText, "\"table\"", "\"tables\""), "table: missing or not an object");
  expect_error("{\"name\": \"x\"}", "scoring");
  expect_error("[1, 2", "custom.json");
}

TEST(Rules, NamesAndFiles) {
  EXPECT_EQ(&table_rules("tenhou"), &rules_preset("tenhou"));
  const std::string file = std::string(HYDRA_RULES_DIR) + "/mahjongsoul.json";
  const TableRules& from_file = table_rules(file);
  EXPECT_EQ(from_file.name, "mahjongsoul");
  EXPECT_EQ(&table_rules(file), &from_file);  // read once, then looked up
  try {
    table_rules("wrc");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("mahjongsoul, tenhou, tenhou-2009, tenhou-2009-tonpuusen, tenhou-kyoku, tenhou-tonpuusen"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(table_rules("/nonexistent/rules.json"), Error);
}

}  // namespace
}  // namespace hydra::game
