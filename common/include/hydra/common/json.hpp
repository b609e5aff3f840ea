#pragma once

// Every JSON document Hydra reads goes through json::parse, and every JSON text it writes through
// json::dump:
// - parse bounds nesting depth (kMaxDepth): nlohmann_json parses iteratively, but printing or
//   copying a value recurses once per level, so a value nested 75,000 deep would overflow the
//   stack later, far from the input. No format Hydra reads nests deeper than a handful of levels.
// - parse reports every failure (syntax, a number out of double's range such as 1e999, too deep)
//   as a json::ParseError (a hydra::Error) with line and column, never as a library exception.
// - dump writes valid UTF-8 whatever the strings hold (invalid sequences become U+FFFD; see
//   hydra/common/text.hpp), and excerpt bounds a value quoted into a message.

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "hydra/common/error.hpp"

namespace hydra::json {

inline constexpr int kMaxDepth = 64;

struct ParseOptions {
  bool comments = false;  // allow // and /* */ comments (config and rules files)
  int max_depth = kMaxDepth;
};

class ParseError : public Error {
 public:
  enum class Kind { syntax, number_range, too_deep };
  ParseError(Kind kind, int line, int column, const std::string& reason);
  Kind kind() const { return kind_; }
  int line() const { return line_; }
  int column() const { return column_; }
  // Why, without the position (already an excerpt: bounded, valid UTF-8).
  const std::string& reason() const { return reason_; }

 private:
  Kind kind_;
  int line_, column_;
  std::string reason_;
};

// Parses one JSON document; what() is "line L, column C: why".
nlohmann::json parse(std::string_view text, const ParseOptions& options = {});
nlohmann::ordered_json parse_ordered(std::string_view text, const ParseOptions& options = {});

// The JSON text of `j` (compact, or pretty with `indent` >= 0) with invalid UTF-8 in its strings
// replaced by U+FFFD instead of throwing.
std::string dump(const nlohmann::json& j, int indent = -1);
std::string dump(const nlohmann::ordered_json& j, int indent = -1);

// `j` for a message: its compact text cut to about `max_bytes` bytes (text::excerpt).
std::string excerpt(const nlohmann::json& j, std::size_t max_bytes = 120);

}  // namespace hydra::json
