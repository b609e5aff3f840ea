#pragma once

// mjx protobuf-JSON game records (github.com/mjx-project/mjx, mjxproto.State): one JSON State
// per kyoku and line, holding the full wall, the public events, each seat's draws and the
// result. Read as-is (no conversion to mjai): the recorded walls let a Table deal the same
// kyoku, and the events are the actions to play on them (tests/data/test_mjx.cpp).
//
// Protobuf JSON leaves fields at their default out: a missing "who" is seat 0, a missing
// "tile" is tile id 0, a missing event "type" is a discard (EVENT_TYPE_DISCARD).

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "hydra/game/event.hpp"
#include "hydra/game/wall.hpp"

namespace hydra::data {

enum class MjxEventType : std::uint8_t {
  discard, tsumogiri, riichi, closed_kan, added_kan, tsumo, abortive_nine_terminals, chi, pon, open_kan,
  new_dora, riichi_score_change, ron, draw, abortive_four_riichis, abortive_three_rons, abortive_four_kans,
  abortive_four_winds, exhaustive_draw_normal, exhaustive_draw_nagashi_mangan,
};

struct MjxEvent {
  MjxEventType type = MjxEventType::discard;
  int who = 0;
  int tile = 0;       // tile id 0..135 (discards, tsumogiri, tsumo, ron, new dora)
  unsigned open = 0;  // Tenhou meld code (chi, pon and the kans): decode_tenhou_meld
};

struct MjxWin {
  int who = 0, from_who = 0, win_tile = 0;
  game::Scores ten_changes{};
};

struct MjxKyoku {
  int round = 0, honba = 0, riichi = 0;  // at the start (round 0 = East 1)
  game::Scores init_scores{};
  game::Wall::Tiles wall{};                       // in Hydra's layout (wall.hpp)
  std::vector<int> dora_indicators;               // tile ids, in order of reveal
  std::vector<int> ura_indicators;
  std::vector<MjxEvent> events;
  std::array<std::vector<int>, game::kNumSeats> init_hands;  // the 13 dealt tile ids per seat
  std::array<std::vector<int>, game::kNumSeats> draws;  // each seat's draws (rinshan included), in order
  std::vector<MjxWin> wins;                       // empty for a draw
  bool no_winner = false;
  game::Scores no_winner_changes{};
  game::Scores final_scores{};
  int final_riichi = 0;
  bool game_over = false;
};

// mjx's wall order (dead wall counted from the end: rinshan 134, 135, 132, 133; dora indicators
// 130, 128, ...; ura 131, 129, ...) in Hydra's layout; the deal and live wall are the same.
game::Wall::Tiles wall_from_mjx(const std::vector<int>& mjx_wall);

// One game: the kyoku in file order. Throws hydra::Error naming file and line for anything that
// is not an mjx State of a 4-player kyoku.
std::vector<MjxKyoku> parse_mjx(std::string_view text, const std::string& name);
std::vector<MjxKyoku> read_mjx(const std::filesystem::path& path);

}  // namespace hydra::data
