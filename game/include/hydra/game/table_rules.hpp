#pragma once

// The rules of a whole game beyond scoring: length, end conditions, abortive draws, liabilities
// and the final placement points. One preset per rules name, next to the scoring rules of the
// same name (rules.hpp): `tenhou` (Tenhou houou hanchan, the default) and `mahjongsoul`, plus
// `tenhou-tonpuusen` and `tenhou-kyoku` (one kyoku, for tests and drills). The engine reads the
// plain fields below only, so a preset never slows the hot path.

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "hydra/game/rules.hpp"

namespace hydra::game {

enum class GameLength : std::uint8_t {
  one_kyoku,  // a single East 1 (training drills, tests)
  tonpuusen,  // East round, South extension
  hanchan,    // East and South rounds, West extension
};

struct TableRules {
  std::string name;
  ScoringRules scoring;
  GameLength length = GameLength::hanchan;
  int start_score = 25000;
  int target_score = 30000;       // return score: ends the last kyoku and the extension; oka base
  bool extension = true;          // sudden-death extension round when nobody reached target_score
  bool tobi = true;               // the game ends when a score goes below 0 (0 itself plays on)
  bool agari_yame = true;         // the last dealer who wins while top may end the game
  bool tenpai_yame = false;       // ... also when only tenpai at the exhaustive draw
  bool triple_ron_draw = true;    // three rons on one discard: abortive draw (sanchahou)
  bool kokushi_ankan_chankan = false;  // kokushi may rob an ankan
  bool pao = true;                // daisangen / daisuushii liability
  bool sticks_to_top = true;      // riichi sticks left at the end go to the top player
  std::array<int, 4> uma_train{3, 1, -1, -3};        // placement points (training reward)
  std::array<int, 4> uma_eval{90, 45, 0, -135};      // Tenhou houou pt (evaluation reports)
  int oka = 20000;                // to the top player, in points

  // Round indices (0 = East 1 ... 15 = North 4): the last scheduled kyoku and the last one at all.
  int last_round() const { return length == GameLength::hanchan ? 7 : length == GameLength::tonpuusen ? 3 : 0; }
  int final_round() const { return extension && length != GameLength::one_kyoku ? last_round() + 4 : last_round(); }
};

// A preset by name; throws hydra::Error listing the names otherwise.
const TableRules& table_rules(std::string_view name);
std::vector<std::string> table_rules_names();

}  // namespace hydra::game
