#pragma once

// hydra::parallel_for(begin, end, body): runs body(i) for every i in [begin, end) concurrently.
//
// Normal builds: exactly oneTBB's parallel_for. ThreadSanitizer builds: plain std::threads
// pulling indices from an atomic counter. Debian's libtbb is not built with TSan, so TSan cannot
// see the synchronisation inside it and buries real reports under false ones from TBB's inline
// code; with std::threads every happens-before edge is visible, and the bodies - Hydra's code,
// the part under test - still run concurrently, so races between them are reported. Route
// parallel loops through here so the TSan job (scripts/test.sh --sanitize thread) covers them.

#include <cstddef>
#include <utility>

#if defined(__SANITIZE_THREAD__)
#define HYDRA_TSAN 1
#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>
#else
#define HYDRA_TSAN 0
#include <oneapi/tbb/parallel_for.h>
#endif

namespace hydra {

template <class Body>
void parallel_for(std::size_t begin, std::size_t end, Body&& body) {
#if HYDRA_TSAN
  // At least 4 threads so that interleavings happen even on a 2-core machine, but no more than
  // there are indices, and none for a single index (nothing can run beside it): a thread costs
  // far more to start under TSan than most bodies, and the lock-step engine loops over a few games
  // thousands of times.
  if (end <= begin) return;
  if (end - begin == 1) {
    body(begin);
    return;
  }
  const unsigned threads = static_cast<unsigned>(
      std::min<std::size_t>(end - begin, std::max(4u, std::thread::hardware_concurrency())));
  std::atomic<std::size_t> next{begin};
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      // Relaxed: the counter must not order one body before another (TBB does not either).
      for (std::size_t i = next.fetch_add(1, std::memory_order_relaxed); i < end;
           i = next.fetch_add(1, std::memory_order_relaxed))
        body(i);
    });
  for (auto& th : pool) th.join();
#else
  tbb::parallel_for(begin, end, std::forward<Body>(body));
#endif
}

}  // namespace hydra
