#pragma once

// Rules presets are data: one JSON file per preset in configs/rules/ (tenhou.json,
// tenhou-tonpuusen.json, tenhou-kyoku.json, tenhou-2009.json, tenhou-2009-tonpuusen.json,
// mahjongsoul.json), each with a "scoring" block (hand
// values) and a "table" block (game length, end conditions, abortive draws, liabilities, final
// placement points). The files are compiled into the binary at build time, so a preset needs no
// file lookup at run time, and are parsed once into the plain structs below; hot paths read
// their fields only. A custom rules file with the same keys can be named wherever a preset is
// (table_rules() / `--rules FILE`). Meaning of each key: docs/RULES.md.
//
// Every key is required and unknown keys are errors, so a preset file always says everything.

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hydra::game {

// Hand values. No defaults on purpose: the values live in the preset files only.
struct ScoringRules {
  bool kuitan{};               // open tanyao counts
  bool kiriage_mangan{};       // 4 han 30 fu and 3 han 60 fu round up to mangan
  bool kazoe_yakuman{};        // 13+ han without a yakuman scores as yakuman (else sanbaiman)
  bool yakuman_stack{};        // several yakuman in one hand add up (else the hand counts one)
  // Double yakuman (value 2 instead of 1) for these four:
  bool double_kokushi_13{};      // kokushi won on the 13-sided wait
  bool double_suuankou_tanki{};  // suuankou won on the pair wait
  bool double_junsei_chuuren{};  // chuuren won on the 9-sided wait
  bool double_daisuushii{};
  int double_wind_pair_fu{};   // fu for a pair of a wind that is both seat and round wind (2 or 4)

  friend bool operator==(const ScoringRules&, const ScoringRules&) = default;

  // Lists every field once, for the strict reader and writer in rules.cpp.
  template <class V>
  void visit(V& v) {
    v("kuitan", kuitan);
    v("kiriage_mangan", kiriage_mangan);
    v("kazoe_yakuman", kazoe_yakuman);
    v("yakuman_stack", yakuman_stack);
    v("double_kokushi_13", double_kokushi_13);
    v("double_suuankou_tanki", double_suuankou_tanki);
    v("double_junsei_chuuren", double_junsei_chuuren);
    v("double_daisuushii", double_daisuushii);
    v("double_wind_pair_fu", double_wind_pair_fu);
  }
};

enum class GameLength : std::uint8_t {
  one_kyoku,  // a single East 1 (training drills, tests)
  tonpuusen,  // East round (extension: South, and on as TableRules::extension_rounds says)
  hanchan,    // East and South rounds (extension: West, ...)
};

// "hanchan", "tonpuusen" or "kyoku" (the spellings of rules files and run configs); nullopt else.
std::optional<GameLength> parse_game_length(std::string_view text);

// The rules of a whole game: scoring plus the table half. No defaults on purpose: the values live
// in the preset files only.
struct TableRules {
  std::string name;
  ScoringRules scoring;
  GameLength length{};
  int start_score{};
  int target_score{};           // return score: ends the last kyoku and the extension; oka base
  int extension_rounds{};       // wind rounds of sudden-death extension at most (0: none), up to North 4
  bool red_fives{};             // one red five per suit (Tenhou ids 16, 52, 88); else plain fives
  bool tobi{};                  // the game ends when a score goes below 0 (0 itself plays on)
  bool agari_yame{};            // the last dealer who wins while top may end the game
  bool tenpai_yame{};           // ... also when only tenpai at the exhaustive draw
  bool triple_ron_draw{};       // three rons on one discard: abortive draw (sanchahou)
  bool kokushi_ankan_chankan{}; // kokushi may rob an ankan
  bool pao{};                   // daisangen / daisuushii liability
  bool sticks_to_top{};         // riichi sticks left at the end go to the top player
  int oka{};                    // to the top player, in points
  std::array<int, 4> uma_train{};  // placement points by rank (training reward)
  std::array<int, 4> uma_eval{};   // placement points by rank (evaluation reports)

  // Round indices (0 = East 1 ... 15 = North 4): the last scheduled kyoku and the last one at all
  // (the extension's last kyoku, North 4 at the latest: no round wind comes after North).
  static constexpr int kLastRoundIndex = 15;
  int last_round() const { return length == GameLength::hanchan ? 7 : length == GameLength::tonpuusen ? 3 : 0; }
  int final_round() const {
    return length == GameLength::one_kyoku ? last_round() : std::min(last_round() + 4 * extension_rounds, kLastRoundIndex);
  }

  friend bool operator==(const TableRules&, const TableRules&) = default;

  // The "table" block's keys, once, for the strict reader in rules.cpp (and docs/RULES.md).
  template <class V>
  void visit_table(V& v) {
    v("length", length);
    v("start_score", start_score);
    v("target_score", target_score);
    v("extension_rounds", extension_rounds);
    v("red_fives", red_fives);
    v("tobi", tobi);
    v("agari_yame", agari_yame);
    v("tenpai_yame", tenpai_yame);
    v("triple_ron_draw", triple_ron_draw);
    v("kokushi_ankan_chankan", kokushi_ankan_chankan);
    v("pao", pao);
    v("sticks_to_top", sticks_to_top);
    v("oka", oka);
    v("uma_train", uma_train);
    v("uma_eval", uma_eval);
  }
};

// A preset by name ("tenhou", "mahjongsoul", ...); throws hydra::Error listing the names otherwise.
const TableRules& rules_preset(std::string_view name);
std::vector<std::string> rules_preset_names();

// A preset name, or else the path of a rules JSON file, either optionally followed by table
// options: "+no-red" (table.red_fives false) and "+no-kuitan" (scoring.kuitan false), as Tenhou's
// lobbies without red fives or open tanyao play ("tenhou-2009-tonpuusen+no-red+no-kuitan"). A file
// or a variant is made on first use and kept for the life of the process, so the reference stays
// valid and later calls are lookups. Throws hydra::Error naming the file and key, or listing the
// presets when nothing matches.
const TableRules& table_rules(std::string_view name_or_path);

// The name table_rules() resolves to `base` with red fives and kuitan as given: the options once
// each, "+no-red" before "+no-kuitan" (rules_variant_name(tenhou, false, true) = "tenhou+no-red").
std::string rules_variant_name(const TableRules& base, bool red_fives, bool kuitan);

// Parses a rules JSON text strictly; errors name `origin` and the key path.
TableRules parse_rules(std::string_view json_text, std::string_view origin);
TableRules load_rules(const std::filesystem::path& file);

}  // namespace hydra::game
