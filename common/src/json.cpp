#include "hydra/common/json.hpp"

#include <algorithm>

#include "hydra/common/text.hpp"

namespace hydra::json {
namespace {

// nlohmann's DOM builder behind a depth counter. The SAX interface is the library's hook for
// this: the parser itself is iterative, the builder does the work, and a `false` from any event
// stops the parse. The builder never throws here (allow_exceptions is off); failures arrive
// through parse_error with the byte position, which exceptions from Json::parse lack for numbers
// out of range.
template <class Json>
class BoundedSax {
 public:
  using number_integer_t = typename Json::number_integer_t;
  using number_unsigned_t = typename Json::number_unsigned_t;
  using number_float_t = typename Json::number_float_t;
  using string_t = typename Json::string_t;
  using binary_t = typename Json::binary_t;

  BoundedSax(Json& root, int max_depth) : dom_(root, /*allow_exceptions=*/false), max_depth_(max_depth) {}

  bool null() { return dom_.null(); }
  bool boolean(bool v) { return dom_.boolean(v); }
  bool number_integer(number_integer_t v) { return dom_.number_integer(v); }
  bool number_unsigned(number_unsigned_t v) { return dom_.number_unsigned(v); }
  bool number_float(number_float_t v, const string_t& s) { return dom_.number_float(v, s); }
  bool string(string_t& v) { return dom_.string(v); }
  bool binary(binary_t& v) { return dom_.binary(v); }
  bool key(string_t& v) { return dom_.key(v); }
  bool start_object(std::size_t n) { return enter() && dom_.start_object(n); }
  bool end_object() {
    --depth_;
    return dom_.end_object();
  }
  bool start_array(std::size_t n) { return enter() && dom_.start_array(n); }
  bool end_array() {
    --depth_;
    return dom_.end_array();
  }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& ex) {
    position_ = position;
    token_ = token;
    id_ = ex.id;
    what_ = ex.what();
    return false;
  }

  bool too_deep() const { return too_deep_; }
  std::size_t position() const { return position_; }
  const std::string& token() const { return token_; }
  int id() const { return id_; }
  const std::string& what() const { return what_; }

 private:
  bool enter() {
    if (++depth_ <= max_depth_) return true;
    too_deep_ = true;
    return false;
  }

  nlohmann::detail::json_sax_dom_parser<Json> dom_;
  int max_depth_;
  int depth_ = 0;
  bool too_deep_ = false;
  std::size_t position_ = 0;
  std::string token_;
  int id_ = 0;
  std::string what_;
};

// Line and column (both from 1) of byte `offset`.
std::pair<int, int> line_column(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  const std::string_view before = text.substr(0, offset);
  const auto line = 1 + std::count(before.begin(), before.end(), '\n');
  const auto nl = before.rfind('\n');
  const auto column = nl == std::string_view::npos ? offset + 1 : offset - nl;
  return {static_cast<int>(line), static_cast<int>(column)};
}

// Where the nesting first goes deeper than `max_depth` (only asked after the parser said so, to
// place the message): brackets outside strings and comments.
std::size_t depth_offset(std::string_view text, int max_depth, bool comments) {
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
    } else if (comments && c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      i = std::min(text.find('\n', i), text.size());
    } else if (comments && c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const auto end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? text.size() : end + 1;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return text.size();
}

// nlohmann's message without its "[json.exception.parse_error.101] parse error at line 1,
// column 2: " prefix (the position is reported separately).
std::string library_reason(std::string what) {
  if (const auto p = what.find("] "); what.starts_with("[json.exception") && p != std::string::npos) what.erase(0, p + 2);
  if (what.starts_with("parse error")) {
    if (const auto p = what.find(": "); p != std::string::npos) what.erase(0, p + 2);
  }
  return what;
}

template <class Json>
Json parse_impl(std::string_view text, const ParseOptions& options) {
  Json root;
  BoundedSax<Json> sax(root, options.max_depth);
  if (Json::sax_parse(text.begin(), text.end(), &sax, nlohmann::json::input_format_t::json, /*strict=*/true,
                      options.comments))
    return root;
  if (sax.too_deep()) {
    const auto [line, column] = line_column(text, depth_offset(text, options.max_depth, options.comments));
    throw ParseError(ParseError::Kind::too_deep, line, column,
                     "nested deeper than " + std::to_string(options.max_depth) + " levels");
  }
  if (sax.id() == 406) {  // out_of_range.406: a number beyond double's range; placed at its start
    const std::size_t start = sax.position() >= sax.token().size() ? sax.position() - sax.token().size() : 0;
    const auto [line, column] = line_column(text, start);
    throw ParseError(ParseError::Kind::number_range, line, column,
                     "number out of range: " + text::excerpt(sax.token(), 40));
  }
  // The position is the count of bytes read, the offending one included.
  const auto [line, column] = line_column(text, sax.position() > 0 ? sax.position() - 1 : 0);
  throw ParseError(ParseError::Kind::syntax, line, column, text::excerpt(library_reason(sax.what()), 200));
}

}  // namespace

ParseError::ParseError(Kind kind, int line, int column, const std::string& reason)
    : Error("line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + reason),
      kind_(kind),
      line_(line),
      column_(column),
      reason_(reason) {}

nlohmann::json parse(std::string_view text, const ParseOptions& options) {
  return parse_impl<nlohmann::json>(text, options);
}

nlohmann::ordered_json parse_ordered(std::string_view text, const ParseOptions& options) {
  return parse_impl<nlohmann::ordered_json>(text, options);
}

std::string dump(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string dump(const nlohmann::ordered_json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string excerpt(const nlohmann::json& j, std::size_t max_bytes) { return text::excerpt(dump(j), max_bytes); }

}  // namespace hydra::json
