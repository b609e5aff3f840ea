#pragma once

// The replay checker behind `hydra replay --check`: replays a game through the four seats' views
// (game/view.hpp) and checks it against the engine's rules, event by event:
//   - every decision (dahai, calls, kans, reach, hora, kyuushu) is one of the actor's legal moves,
//     and every draw comes from the seat whose turn it is, while the live wall has tiles;
//   - every hora: yaku, han, fu and points recomputed by the scoring engine from the winner's view
//     (ura indicators from the log), and the deltas with honba, sticks, double ron and pao;
//   - every ryukyoku: the reason holds (exhaustive, kyuushu, four winds, four riichi, four kans),
//     tenpai and nagashi recomputed from the hands, the payments;
//   - where the log records the walls (GameLog::walls: a Tenhou mjlog's SHUFFLE seed), every
//     dealt hand, live draw, rinshan draw, dora and ura indicator is the wall's tile;
//   - every reach_accepted stick, the running scores, honba, sticks and dealer of each kyoku, when
//     the game ends (tobi, agari-yame, tenpai-yame, extension) and the final scores: a log whose
//     source records its end (GameLog::end_recorded) must end exactly there, a later kyoku or an
//     early end_game fails naming the kyoku and the rule; only logs partial by construction (no
//     recorded end, a single kyoku, a fragment starting mid-game) are reported as partial.
// A game played under rules the presets do not model is `skipped` with the reason. A file's rules
// are its own where it names them (a Tenhou log: its lobby type and date, log_rules.hpp) when
// the caller asks so (RulesChoice::per_log), else the ones given.
//
// Places are "file:N", N the 1-based position of the event in the game's normalised mjai stream
// (for an mjai file: its line, up to Tenhou's reordering of dora events).

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "hydra/data/game_log.hpp"
#include "hydra/data/log_rules.hpp"
#include "hydra/game/rules.hpp"

namespace hydra::data {

enum class ReplayStatus : std::uint8_t { pass, fail, skipped, error };
std::string_view to_string(ReplayStatus s);

struct ReplayReport {
  std::string file;
  ReplayStatus status = ReplayStatus::pass;
  std::string message;  // the first failure, the skip reason or the read error
  std::string rules;    // the name of the rules the game was checked under (empty: not read)
  int events = 0;
  int kyoku = 0;
  int decisions = 0;    // actor events checked for legality
  int horas = 0;
  int ryukyokus = 0;
  // Checked against the log's walls (GameLog::walls); all 0 when it has none.
  int wall_kyoku = 0;
  int wall_draws = 0;       // live draws
  int wall_rinshan = 0;     // rinshan draws
  int wall_indicators = 0;  // dora (the first and kan dora) and ura indicators
};

// Checks one game already in memory; `name` prefixes every place in the messages.
ReplayReport check_game(const GameLog& log, const game::TableRules& rules, std::string_view name);

// Reads and checks one file in any format hydra reads (mjai in either dialect, Tenhou mjlog XML,
// tenhou.net/6; convert.hpp) under the rules `rules` picks for it. Read errors, corrupt files and
// unsupported rules become the report's status, never an exception. Folders:
// data::collect_log_files (convert.hpp).
ReplayReport check_file(const std::filesystem::path& file, const RulesChoice& rules);

// The encoder verification of one file (`hydra replay --verify-encoder`, encoder/verify.hpp) in
// a replay report's terms: at every decision point of every seat incremental == full encoding
// and the suit permutations commute with encoding; a failure or a bad file as check_file reports it.
ReplayReport verify_encoder_file(const std::filesystem::path& file, const RulesChoice& rules);

}  // namespace hydra::data
