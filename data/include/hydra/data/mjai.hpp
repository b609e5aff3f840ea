#pragma once

// mjai JSON lines <-> events. Reads the Mortal and the gimite dialect (docs/LOGS.md lists the
// differences), writes the Mortal dialect with Tenhou's result fields kept.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "hydra/data/game_log.hpp"

namespace hydra::data {

// One parsed line: the event, which optional fields it carried, and the names of a start_game.
struct ParsedLine {
  game::Event event;
  std::uint8_t given = 0;  // GivenField mask
  std::array<std::string, game::kNumSeats> names;
  std::string uri;
  std::optional<SearchNote> search;  // "meta": {"search": ...} (its `event` left 0)
};

// Parses one mjai JSON line. Throws hydra::Error naming the field (no file or line: the caller
// adds them).
ParsedLine parse_mjai_line(std::string_view line);

// One event as a Mortal-dialect JSON line (no newline). start_game takes the names from `log`.
// A search note of the event is written by to_mjai_text (with the event's index).
std::string to_mjai_line(const game::Event& e, const GameLog& log);
// The same as a JSON object, for a caller that adjusts it before writing (external agents hide
// the other seats' tiles).
nlohmann::ordered_json to_mjai_json(const game::Event& e, const GameLog& log);

// Builds one game from its mjai lines in order (read_mjai, parse_mjai_text and the pretraining
// dataset's reader): add() parses a line (an error names `name` and the line number), finish()
// normalises the game (errors name the line of the event at fault).
class MjaiGameBuilder {
 public:
  explicit MjaiGameBuilder(std::string name) : name_(std::move(name)) {}
  void add(std::string_view line, int number);
  GameLog finish(int last_line);

 private:
  std::string name_;
  GameLog log_;
  std::vector<std::uint8_t> given_;
  std::vector<int> lines_;  // source line of each event, for the normaliser's messages
};

// Reads one game from a .json or .json.gz file (streamed; memory bounded by the game) and
// normalises it. Errors name the file and line.
GameLog read_mjai(const std::filesystem::path& path);

// The same from text in memory; `name` stands for the file in messages.
GameLog parse_mjai_text(std::string_view text, const std::string& name);

// The game as Mortal-dialect JSON lines.
std::string to_mjai_text(const GameLog& log);

// Writes the game atomically, gzipped when the name ends in ".gz".
void write_mjai(const std::filesystem::path& path, const GameLog& log);

}  // namespace hydra::data
