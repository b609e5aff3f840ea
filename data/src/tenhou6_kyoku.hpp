#pragma once

// One kyoku of a tenhou.net/6 log, parsed but not yet replayed (private to the importer).
// Tiles are tenhou.net/6 codes: 11-19 man, 21-29 pin, 31-39 sou, 41-47 E S W N P F C,
// 51/52/53 red 5m/5p/5s; in discards 60 means "the drawn tile" (tsumogiri) and 0 stands for the
// discard a daiminkan skips.

#include <array>
#include <string>
#include <vector>

#include "hydra/data/game_log.hpp"

namespace hydra::data::tenhou6 {

// A take (draw or call) or a discard: a tile code, or a call string such as "c131415",
// "34p3434" (the letter's place says whom the tile came from), "121212a12", "r24".
struct Item {
  int code = 0;      // when `call` is empty
  std::string call;  // chi/pon/daiminkan in takes; riichi/ankan/kakan in discards
};

struct Win {
  game::Scores deltas{};
  std::vector<int> who_from_pao;  // as given (may be wrong in hand-made files: deltas decide)
  std::string points;             // "30符4飜7700点", "満貫8000点", "500-1000点", "4000点∀"
  std::vector<std::string> yakus; // "立直(1飜)", "大三元(役満)"
};

struct Kyoku {
  int round = 0, honba = 0, kyotaku = 0;
  game::Scores scores{};
  std::vector<game::Pai> dora, ura;
  std::array<std::vector<game::Pai>, game::kNumSeats> haipai;
  std::array<std::vector<Item>, game::kNumSeats> takes, discards;
  std::string result;              // "和了", "流局", "九種九牌", ...
  game::Scores draw_deltas{};      // for draws
  std::vector<Win> wins;
};

// tenhou.net/6 tile code -> tile; throws hydra::Error for other codes.
game::Pai tile_from_code(int code);

// Replays one kyoku into events (start_kyoku .. end_kyoku), appending to `out` and to `given`.
// Throws hydra::Error when no order of calls fits the log.
void replay_kyoku(const Kyoku& k, std::vector<game::Event>& out, std::vector<std::uint8_t>& given);

}  // namespace hydra::data::tenhou6
