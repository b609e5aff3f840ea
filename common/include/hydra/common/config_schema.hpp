#pragma once

// The vocabulary config sections use to describe their fields. A section is a plain struct with
// defaults in its member initialisers and a `visit` template listing every field once:
//
//   struct ModelConfig {
//     int blocks = 40;
//     template <class V> void visit(V& v) { v("blocks", blocks, "SE-ResBlocks", Range{1, 256}); }
//   };
//
// The same `visit` drives strict JSON reading (config_io.cpp), JSON writing and documentation,
// so a field added there is parsed, range-checked, printed and overridable with --set at once.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hydra::config {

struct NoCheck {};

// Inclusive numeric range; applies to scalars, to the value of an optional and to each element
// of a vector.
template <class T>
struct Range {
  T lo;
  T hi;
};
template <class T>
Range(T, T) -> Range<T>;

// A string that must be one of the listed choices: OneOf{"a", "b"}. A value that was a choice once
// and was retired is refused with its note (why, and where it is written up):
// OneOf({"a", "b"}, {Retired{"c", "why"}}) (parentheses: a braced pair of strings would also read
// as one string_view).
struct Retired {
  std::string_view value;
  std::string_view note;
};
struct OneOf {
  std::vector<std::string_view> choices;
  std::vector<Retired> retired;
  OneOf(std::initializer_list<std::string_view> c, std::initializer_list<Retired> r = {}) : choices(c), retired(r) {}
};

}  // namespace hydra::config
