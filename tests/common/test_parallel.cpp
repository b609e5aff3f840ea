#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "hydra/common/parallel.hpp"
#include "hydra/common/thread_limit.hpp"

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

// ThreadLimit is oneTBB's own cap: it holds while the object lives, the smallest live cap wins,
// 0 sets none, and the default comes back afterwards.
TEST(ThreadLimit, CapsOneTbbWhileItLives) {
  const int before = ThreadLimit::active();
  EXPECT_GE(before, 1);
  {
    const ThreadLimit one(1);
    EXPECT_EQ(ThreadLimit::active(), 1);
    {
      const ThreadLimit none(0);
      const ThreadLimit three(3);
      EXPECT_EQ(ThreadLimit::active(), 1);
    }
#if !HYDRA_TSAN  // under TSan parallel_for runs on plain threads (parallel.hpp)
    // Under a cap of one, every body runs on the calling thread.
    std::set<std::thread::id> ids;
    std::mutex m;
    parallel_for(0, 2'000, [&](std::size_t) {
      const std::lock_guard lock(m);
      ids.insert(std::this_thread::get_id());
    });
    EXPECT_EQ(ids, std::set<std::thread::id>{std::this_thread::get_id()});
#endif
  }
  EXPECT_EQ(ThreadLimit::active(), before);
}

}  // namespace
}  // namespace hydra
