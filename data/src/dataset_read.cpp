// read_game: one log file in memory, with gunzip and parsing timed apart for the dataset report.
// mjai files are decompressed whole (a game is a few hundred KB) and parsed line by line from
// memory, as read_mjai() does from its streaming reader; other formats go through read_log().

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

// Whether the text is mjai JSON lines: its first line is an object with a "type" key (an mjlog
// starts with '<', a tenhou.net/6 game has a "log" key instead).
bool looks_like_mjai(std::string_view text) {
  const std::size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || text[start] != '{') return false;
  const std::string_view first = text.substr(start, text.find('\n', start) - start);
  return first.find("\"type\"") != std::string_view::npos;
}

}  // namespace

GameLog read_game(const std::filesystem::path& path, double* seconds_gunzip, double* seconds_parse) {
  auto t0 = Clock::now();
  const std::string text = read_text_file(path);
  if (seconds_gunzip) *seconds_gunzip += seconds_since(t0);
  t0 = Clock::now();
  if (!looks_like_mjai(text)) {
    GameLog log = read_log(path);
    if (seconds_parse) *seconds_parse += seconds_since(t0);
    return log;
  }
  GameLog log;
  std::vector<std::uint8_t> given;
  std::vector<int> lines;
  int line_no = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    ParsedLine parsed;
    try {
      parsed = parse_mjai_line(line);
    } catch (const Error& e) {
      throw Error(path.string() + ":" + std::to_string(line_no) + ": " + e.what());
    }
    if (parsed.event.type == game::EventType::start_game) {
      log.names = std::move(parsed.names);
      log.uri = std::move(parsed.uri);
    }
    log.events.push_back(parsed.event);
    given.push_back(parsed.given);
    lines.push_back(line_no);
  }
  if (log.events.empty()) throw Error(path.string() + ": empty file (no mjai events)");
  normalize(log, given, [&](std::size_t i) {
    return path.string() + ":" + std::to_string(i < lines.size() ? lines[i] : line_no);
  });
  if (const auto why = unsupported_rule(log)) throw UnsupportedRule(path.string() + ": unsupported rule: " + *why);
  if (seconds_parse) *seconds_parse += seconds_since(t0);
  return log;
}

}  // namespace hydra::data
