#pragma once

// ix(i): a signed index, count or size, or an enumerator, as std::size_t, for subscripts of
// std::array and std::vector (`hands[ix(seat.index())]`, `names[ix(kind)]`). The one spelling of
// that conversion; the value must not be negative.

#include <concepts>
#include <cstddef>
#include <type_traits>

namespace hydra {

template <class I>
  requires std::integral<I> || std::is_enum_v<I>
constexpr std::size_t ix(I i) {
  return static_cast<std::size_t>(i);
}

}  // namespace hydra
