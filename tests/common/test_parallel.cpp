#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "hydra/common/parallel.hpp"

namespace hydra {
namespace {

// Every index runs exactly once, whatever the scheduler (TBB, or plain threads under TSan).
TEST(Parallel, EveryIndexRunsExactlyOnce) {
  constexpr std::size_t kN = 10'000;
  std::vector<std::atomic<int>> hits(kN);
  parallel_for(0, kN, [&](std::size_t i) { hits[i].fetch_add(1, std::memory_order_relaxed); });
  for (std::size_t i = 0; i < kN; ++i) ASSERT_EQ(hits[i].load(), 1) << "index " << i;
}

// Writes made in the bodies are visible after the loop (the hand-off TSan must see), and the
// caller's data written before the loop is visible inside it.
TEST(Parallel, ResultsMatchASerialLoop) {
  std::vector<long> input(5'000), out(5'000);
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<long>(i * i % 997);
  parallel_for(0, input.size(), [&](std::size_t i) { out[i] = input[i] * 3 + 1; });
  for (std::size_t i = 0; i < input.size(); ++i) ASSERT_EQ(out[i], input[i] * 3 + 1);
}

TEST(Parallel, EmptyAndOffsetRanges) {
  int calls = 0;
  parallel_for(7, 7, [&](std::size_t) { ++calls; });
  EXPECT_EQ(calls, 0);
  std::vector<std::atomic<int>> hits(20);
  parallel_for(5, 20, [&](std::size_t i) { hits[i].fetch_add(1); });
  for (std::size_t i = 0; i < 20; ++i) EXPECT_EQ(hits[i].load(), i >= 5 ? 1 : 0);
}

}  // namespace
}  // namespace hydra
