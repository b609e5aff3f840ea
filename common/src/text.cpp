#include "hydra/common/text.hpp"

#include <cstdint>

namespace hydra::text {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The sequence starting at s[i]: how many bytes it spans, and whether it is one valid code point.
// An invalid sequence spans its maximal subpart (the lead byte and the continuation bytes that
// could still have completed it), so each one becomes a single U+FFFD.
std::size_t next_sequence(std::string_view s, std::size_t i, bool& valid) {
  const auto b = static_cast<std::uint8_t>(s[i]);
  valid = false;
  if (b < 0x80) {
    valid = true;
    return 1;
  }
  std::size_t len = 0;
  std::uint8_t lo = 0x80, hi = 0xBF;  // the range of the second byte; later ones are 80-BF
  if (b >= 0xC2 && b <= 0xDF) len = 2;
  else if (b == 0xE0) { len = 3; lo = 0xA0; }
  else if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF) len = 3;
  else if (b == 0xED) { len = 3; hi = 0x9F; }  // no UTF-16 surrogates
  else if (b == 0xF0) { len = 4; lo = 0x90; }
  else if (b >= 0xF1 && b <= 0xF3) len = 4;
  else if (b == 0xF4) { len = 4; hi = 0x8F; }  // at most U+10FFFF
  else return 1;  // a continuation byte, an overlong lead (C0, C1) or F5-FF
  for (std::size_t k = 1; k < len; ++k) {
    if (i + k >= s.size()) return k;
    const auto c = static_cast<std::uint8_t>(s[i + k]);
    if (c < (k == 1 ? lo : 0x80) || c > (k == 1 ? hi : 0xBF)) return k;
  }
  valid = true;
  return len;
}

}  // namespace

bool valid_utf8(std::string_view s) {
  bool valid = true;
  for (std::size_t i = 0; i < s.size();) {
    i += next_sequence(s, i, valid);
    if (!valid) return false;
  }
  return true;
}

std::string to_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool valid = true;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = next_sequence(s, i, valid);
    if (valid) out.append(s.substr(i, n));
    else out.append(kReplacement);
    i += n;
  }
  return out;
}

std::string excerpt(std::string_view s, std::size_t max_bytes) {
  std::string out;
  bool valid = true;
  std::size_t i = 0;
  while (i < s.size() && out.size() < max_bytes) {
    const std::size_t n = next_sequence(s, i, valid);
    const auto b = static_cast<std::uint8_t>(s[i]);
    if (!valid) {
      out.append(kReplacement);
    } else if (b < 0x20 || b == 0x7F) {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 0xF];
    } else {
      out.append(s.substr(i, n));
    }
    i += n;
  }
  if (i < s.size()) out += "... (" + std::to_string(s.size()) + " bytes)";
  return out;
}

}  // namespace hydra::text
