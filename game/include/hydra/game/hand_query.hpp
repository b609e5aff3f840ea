#pragma once

// One hand evaluated as `hydra hand` reports it: shanten, waits and ukeire (13 tiles) or the best
// discards (14 tiles); with a winning tile also the yaku, han, fu, points and payments. The
// command's flags and its --batch lines (one JSON object per line, keys named like the flags
// without dashes) fill the same HandQuery; the fuzz harness of the batch lines calls
// hand_batch_line as the command does.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hydra/game/rules.hpp"

namespace hydra::game {

struct HandQuery {
  std::string hand;                 // closed tiles in compact notation (0 = red five)
  std::vector<std::string> melds;   // declared melds (game::parse_meld notation)
  std::string win;                  // the winning tile; "" = no win, shanten only
  bool tsumo = false;
  std::string from = "kamicha";     // on a ron: kamicha, toimen or shimocha
  std::string round = "E", seat = "S";
  bool riichi = false, double_riichi = false, ippatsu = false, haitei = false, houtei = false;
  bool rinshan = false, chankan = false, tenhou = false, chiihou = false;
  std::string dora, ura;            // indicators in compact notation
  int honba = 0, sticks = 0;
};

// The evaluation as `hydra hand --json` prints it. Throws hydra::Error naming the flag for a
// malformed tile, meld, wind or an impossible win.
nlohmann::ordered_json evaluate_hand(const HandQuery& q, const TableRules& rules);

// A --batch line (a JSON object) as a query; throws hydra::Error naming the line and the key.
HandQuery parse_hand_query(const std::string& line, int number);

// The compact JSON reply to batch line `number`: evaluate_hand's result or {"error": ...}, with
// "line": number.
std::string hand_batch_line(const std::string& line, int number, const TableRules& rules);

}  // namespace hydra::game
