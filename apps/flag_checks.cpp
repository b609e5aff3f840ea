#include "flag_checks.hpp"

#include <charconv>
#include <cmath>
#include <sstream>
#include <string>


namespace hydra::apps {
namespace {

template <class T>
bool parse_whole(const std::string& text, T& value) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end;
}

std::string text_of(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

}  // namespace

CLI::Validator integer_in(std::int64_t lo, std::int64_t hi) {
  const std::string range = "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        std::int64_t v = 0;
        if (!parse_whole(text, v) || v < lo || v > hi) return "must be " + range + ", got '" + text + "'";
        return {};
      },
      "INT:" + std::to_string(lo) + ".." + std::to_string(hi));
}

CLI::Validator number_in(double lo, double hi, bool lo_open) {
  const std::string range = std::string("a finite number ") + (lo_open ? "above " : "from ") + text_of(lo) +
                            (lo_open ? " and at most " : " to ") + text_of(hi);
  return CLI::Validator(
      [lo, hi, lo_open, range](std::string& text) -> std::string {
        double v = 0;
        const bool ok = parse_whole(text, v) && std::isfinite(v) && (lo_open ? v > lo : v >= lo) && v <= hi;
        if (!ok) return "must be " + range + ", got '" + text + "'";
        return {};
      },
      std::string("NUM:") + (lo_open ? ">" : "") + text_of(lo) + ".." + text_of(hi));
}

CLI::Validator seed_value() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::uint64_t v = 0;
        if (!parse_whole(text, v)) return "must be an integer from 0 to 18446744073709551615, got '" + text + "'";
        return {};
      },
      "SEED");
}

}  // namespace hydra::apps
