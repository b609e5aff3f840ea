// Table rules presets. The scoring half of each preset is the compiled-in rules file of the same
// name (configs/rules/*.json); the table half is below.

#include "hydra/game/table_rules.hpp"

#include <array>

#include "hydra/common/error.hpp"

namespace hydra::game {
namespace {

TableRules tenhou(GameLength length, std::string name) {
  TableRules r;
  r.name = std::move(name);
  r.scoring = rules_preset("tenhou").scoring;
  r.length = length;
  return r;
}

// Mahjong Soul ranked: triple ron pays all, kokushi may rob an ankan, tenpai-yame as well.
TableRules mahjongsoul() {
  TableRules r;
  r.name = "mahjongsoul";
  r.scoring = rules_preset("mahjongsoul").scoring;
  r.triple_ron_draw = false;
  r.kokushi_ankan_chankan = true;
  r.tenpai_yame = true;
  r.uma_eval = {15, 5, -5, -15};
  return r;
}

const std::array<TableRules, 4>& presets() {
  static const std::array<TableRules, 4> all = {
      tenhou(GameLength::hanchan, "tenhou"), tenhou(GameLength::tonpuusen, "tenhou-tonpuusen"),
      tenhou(GameLength::one_kyoku, "tenhou-kyoku"), mahjongsoul()};
  return all;
}

}  // namespace

const TableRules& table_rules(std::string_view name) {
  for (const TableRules& r : presets())
    if (r.name == name) return r;
  std::string names;
  for (const std::string& n : table_rules_names()) names += (names.empty() ? "" : ", ") + n;
  throw Error("unknown table rules '" + std::string(name) + "' (known: " + names + ")");
}

std::vector<std::string> table_rules_names() {
  std::vector<std::string> out;
  for (const TableRules& r : presets()) out.push_back(r.name);
  return out;
}

}  // namespace hydra::game
