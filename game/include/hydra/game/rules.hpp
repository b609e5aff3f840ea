#pragma once

// Rules presets are data: one JSON file per preset in configs/rules/ (tenhou.json,
// mahjongsoul.json). The files are compiled into the binary at build time, so a preset needs no
// file lookup at run time, and are parsed once into the plain struct below; hot paths read its
// fields only. A custom rules file with the same keys can be loaded with load_rules().
//
// Every key is required and unknown keys are errors, so a preset file always says everything.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace hydra::game {

// No defaults on purpose: the values live in the preset files only.
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

struct Rules {
  std::string name;
  ScoringRules scoring;
};

// A preset by name ("tenhou", "mahjongsoul"); throws hydra::Error listing the names otherwise.
const Rules& rules_preset(std::string_view name);
std::vector<std::string> rules_preset_names();

// Parses a rules JSON text strictly; errors name `origin` and the key path.
Rules parse_rules(std::string_view json_text, std::string_view origin);
Rules load_rules(const std::filesystem::path& file);

// A preset name, or else a path to a rules file.
Rules rules_from_name_or_file(std::string_view name_or_path);

}  // namespace hydra::game
