// read_game: one log file, with gunzip (and line splitting) and parsing timed apart for the
// dataset report. mjai files are read as read_mjai() reads them, line by line through the
// streaming reader (whose errors name the line); other formats go through read_log().

#include <chrono>

#include "hydra/common/error.hpp"
#include "hydra/data/convert.hpp"
#include "hydra/data/dataset.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/data/text_file.hpp"

namespace hydra::data {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Whether a file is mjai JSON lines from its first line: an object with a "type" key ahead of any
// "log" key (as detect_format decides: an mjlog starts with '<', a tenhou.net/6 game has "log").
bool looks_like_mjai(std::string_view first_line) {
  const std::size_t start = first_line.find_first_not_of(" \t");
  if (start == std::string_view::npos || first_line[start] != '{') return false;
  const std::size_t type = first_line.find("\"type\""), log = first_line.find("\"log\"");
  return type != std::string_view::npos && (log == std::string_view::npos || type < log);
}

}  // namespace

GameLog read_game(const std::filesystem::path& path, double* seconds_gunzip, double* seconds_parse) {
  double gunzip = 0, parse = 0;
  LineReader reader(path);
  std::string_view line;
  auto next_line = [&] {
    const auto t0 = Clock::now();
    const bool more = reader.next(line);
    gunzip += seconds_since(t0);
    return more;
  };
  bool more = next_line();
  while (more && line.find_first_not_of(" \t\r") == std::string_view::npos) more = next_line();
  if (!more || !looks_like_mjai(line)) {
    const auto t0 = Clock::now();
    GameLog log = read_log(path);
    if (seconds_parse) *seconds_parse += seconds_since(t0);
    if (seconds_gunzip) *seconds_gunzip += gunzip;
    return log;
  }
  MjaiGameBuilder game(path.string());
  for (; more; more = next_line()) {
    const auto t0 = Clock::now();
    game.add(line, reader.line_number());
    parse += seconds_since(t0);
  }
  const auto t0 = Clock::now();
  GameLog log = game.finish(reader.line_number());
  parse += seconds_since(t0);
  if (seconds_gunzip) *seconds_gunzip += gunzip;
  if (seconds_parse) *seconds_parse += parse;
  return log;
}

}  // namespace hydra::data
