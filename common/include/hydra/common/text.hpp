#pragma once

// Text that leaves Hydra (JSON files, JSON on stdout, error messages, logs) is valid UTF-8: input
// is read as bytes, and where bytes from an input reach an output, invalid UTF-8 sequences are
// replaced with U+FFFD. Values quoted into messages are excerpts: bounded in length, control
// characters escaped, so a hostile input never makes a huge or unprintable message.
// docs/LOGS.md ("Text and encodings") states the policy.

#include <cstddef>
#include <string>
#include <string_view>

namespace hydra::text {

// Whether `s` is well-formed UTF-8 (RFC 3629: no overlongs, no surrogates, at most U+10FFFF).
bool valid_utf8(std::string_view s);

// `s` with every maximal invalid subsequence replaced by U+FFFD (the Unicode "substitution of
// maximal subparts" practice); valid input comes back unchanged.
std::string to_utf8(std::string_view s);

// How many bytes of a value a message quotes by default.
inline constexpr std::size_t kExcerptBytes = 120;

// `s` for a message: valid UTF-8, control characters as \xNN, at most about `max_bytes` bytes,
// cut at a character boundary and marked "... (N bytes)" when cut.
std::string excerpt(std::string_view s, std::size_t max_bytes = kExcerptBytes);

}  // namespace hydra::text
