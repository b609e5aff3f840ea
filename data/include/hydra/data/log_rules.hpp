#pragma once

// The rules a log was played under, where the log says. A Tenhou log names its table by the lobby
// type (the mjlog's GO type; in any format, the 4 hex digits after "gm-" in the log id its name
// or URL carries) and its date (the id's first ten digits, YYYYMMDDHH, the hour the game began).
// Tenhou's rules changed between the logs of March 2009 and those of 2022 (docs/RULES.md,
// "Tenhou's rules by era"), so the type and the date together pick the rules:
//
//   date before kTenhou2009RulesUntil  tenhou-2009 / tenhou-2009-tonpuusen  (no tenpai-yame; the
//                                      extension goes on past the next wind round)
//   later, or no date                  tenhou / tenhou-tonpuusen            (today's rules)
//   type bit 0x08 set / clear          the hanchan / the tonpuusen preset
//   type bit 0x02 (no red fives)       + "+no-red"     (table.red_fives false)
//   type bit 0x04 (no open tanyao)     + "+no-kuitan"  (scoring.kuitan false)
//
// The other bits name the room (0x20 | 0x80: houou, 0x80: joukyuu, 0x20: tokujou), the speed
// (0x40) and whether the players are people (0x01): they change no rule. 3-player lobbies (0x10)
// and anything above 0xFF (chips, ratio, custom lobbies) have no preset: such logs are left to
// the fallback rules and the readers' own checks, which refuse them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "hydra/data/game_log.hpp"
#include "hydra/game/rules.hpp"

namespace hydra::data {

// Tenhou logs that began before this hour (YYYYMMDDHH) are replayed under the 2009 rules. The
// old rules are seen in every log of 2009-03-04..2009-03-12 that reaches the cases, today's in
// every log of 2022; the change lies between, and the cutoff assumes it came right after the last
// game that shows the old rules (docs/RULES.md).
inline constexpr std::int64_t kTenhou2009RulesUntil = 2009040100;

// A Tenhou log id, "2009031010gm-00ab-0000-cbdeff09": the hour the game began and its lobby type.
struct TenhouLogId {
  std::int64_t hour = 0;  // YYYYMMDDHH
  unsigned type = 0;
};
// The first Tenhou log id in `text` (a file name, a path, a log URL), or nullopt.
std::optional<TenhouLogId> find_tenhou_log_id(std::string_view text);

// The rules name (table_rules() resolves it) of a Tenhou table with this lobby type, for a game
// that began at `hour` (nullopt: unknown, today's rules); nullopt for lobbies without a preset
// (3-player, chips, ratio, custom rules).
std::optional<std::string> tenhou_rules_name(unsigned type, std::optional<std::int64_t> hour);

// The rules a log names (its Tenhou lobby type: GameLog::tenhou_type, else the log id in its
// URL; its date: the log id), or nullptr when it names none.
const game::TableRules* rules_named_by(const GameLog& log);

// Makes every red five of the log a plain five: a table without red fives has none, its fives
// with Tenhou ids 16, 52 and 88 included.
void drop_red_fives(GameLog& log);

// How a command picks each log's rules: one rules for every log (what a user named), or each
// log's own (rules_named_by) with a fallback for the logs that name none.
class RulesChoice {
 public:
  RulesChoice(const game::TableRules& fixed) : rules_(&fixed) {}  // NOLINT(google-explicit-constructor): every log under these
  static RulesChoice per_log(const game::TableRules& fallback);
  // "auto" (per log, `tenhou` for the logs that name none) or a rules name or file for every
  // log. Throws hydra::Error for an unknown name.
  static RulesChoice parse(std::string_view text);

  const game::TableRules& of(const GameLog& log) const;
  bool per_log() const { return per_log_; }
  const game::TableRules& fallback() const { return *rules_; }  // the fixed rules when not per log
  // "auto (each log's own; tenhou for the others)" or the fixed rules' name.
  std::string describe() const;

 private:
  const game::TableRules* rules_;
  bool per_log_ = false;
};

}  // namespace hydra::data
