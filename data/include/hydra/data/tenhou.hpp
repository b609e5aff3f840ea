#pragma once

// Tenhou logs -> mjai events: the mjlog XML that Tenhou stores and the tenhou.net/6 JSON its
// viewer exports (one object with every kyoku in `log`, or JSON lines with one kyoku each).
// Both give the normalised GameLog of game_log.hpp; rules Hydra does not play (3-player, chip or
// ratio lobbies, other start scores) throw UnsupportedRule. An mjlog from a lobby without red
// fives reads its fives as plain ones; the lobby's rules: log_rules.hpp.

#include <filesystem>
#include <string_view>

#include "hydra/data/game_log.hpp"

namespace hydra::data {

// `name` is used in messages and, when it looks like a Tenhou log id, for the log URL.
GameLog parse_tenhou_xml(std::string_view xml, const std::string& name);
GameLog read_tenhou_xml(const std::filesystem::path& path);

GameLog parse_tenhou6(std::string_view json_text, const std::string& name);
GameLog read_tenhou6(const std::filesystem::path& path);

// Decoding of one Tenhou meld (the `m` attribute of an <N> tag) into a chi, pon, kakan,
// daiminkan or ankan event of seat `who`. Throws hydra::Error for codes Hydra cannot play
// (the 3-player nukidora) or that name impossible tiles.
game::Event decode_tenhou_meld(int who, unsigned m);

}  // namespace hydra::data
