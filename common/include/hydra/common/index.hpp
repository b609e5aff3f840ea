#pragma once

// ix(i): a signed index, count or size as std::size_t, for subscripts of std::array and
// std::vector (`hands[ix(seat.index())]`). The one spelling of that conversion; the value must
// not be negative.

#include <concepts>
#include <cstddef>

namespace hydra {

template <std::integral I>
constexpr std::size_t ix(I i) {
  return static_cast<std::size_t>(i);
}

}  // namespace hydra
