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
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>
#else
#define HYDRA_TSAN 0
#include <oneapi/tbb/parallel_for.h>
#endif

namespace hydra {

#if HYDRA_TSAN
namespace tsan_detail {

// At least 4 threads so that interleavings happen even on a 2-core machine.
inline unsigned loop_threads() { return std::max(4u, std::thread::hardware_concurrency()); }

// One thread's share of a loop: body(i) for each index it takes from the loop's counter until
// `end`. Relaxed: the counter must not order one body before another (TBB does not either).
inline void pull(std::atomic<std::size_t>& next, std::size_t end, const std::function<void(std::size_t)>& body) {
  for (std::size_t i = next.fetch_add(1, std::memory_order_relaxed); i < end;
       i = next.fetch_add(1, std::memory_order_relaxed))
    body(i);
}

// Worker threads started once, which run one loop at a time beside its caller: a thread costs
// far more to start under TSan than most bodies, and the lock-step engine runs loops over a few
// games thousands of times. A loop started while another runs (nested in a body, or from another
// thread) gets threads of its own. The hand-over goes through a mutex, so TSan sees each loop's
// start and end; within a loop the bodies on different threads are ordered by nothing.
class Workers {
 public:
  static Workers& get() {
    static Workers workers;
    return workers;
  }
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;
  ~Workers() {
    {
      const std::scoped_lock lock(mu_);
      stop_ = true;
    }
    start_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  // False, without running anything, when a loop is running.
  bool run(std::size_t begin, std::size_t end, const std::function<void(std::size_t)>& body) {
    {
      const std::scoped_lock lock(mu_);
      if (busy_) return false;
      busy_ = true;
      body_ = &body;
      next_.store(begin, std::memory_order_relaxed);
      end_ = end;
      working_ = threads_.size();
      ++loop_;
    }
    start_.notify_all();
    std::exception_ptr thrown;
    try {
      pull(next_, end, body);
    } catch (...) {  // the workers finish the loop first (a throw on a worker ends the process)
      thrown = std::current_exception();
    }
    std::unique_lock lock(mu_);
    done_.wait(lock, [&] { return working_ == 0; });
    busy_ = false;
    body_ = nullptr;
    if (thrown) std::rethrow_exception(thrown);
    return true;
  }

 private:
  Workers() {
    for (unsigned t = 1; t < loop_threads(); ++t) threads_.emplace_back([this] { work(); });
  }

  void work() {
    std::uint64_t seen = 0;
    std::unique_lock lock(mu_);
    for (;;) {
      start_.wait(lock, [&] { return stop_ || loop_ != seen; });
      if (stop_) return;
      seen = loop_;
      const std::function<void(std::size_t)>& body = *body_;
      const std::size_t end = end_;
      lock.unlock();
      pull(next_, end, body);
      lock.lock();
      if (--working_ == 0) done_.notify_all();
    }
  }

  std::mutex mu_;
  std::condition_variable start_, done_;
  std::vector<std::thread> threads_;
  bool busy_ = false, stop_ = false;
  std::uint64_t loop_ = 0;                                   // loops started
  std::size_t working_ = 0;                                  // workers still in the current loop
  const std::function<void(std::size_t)>* body_ = nullptr;  // the current loop's
  std::size_t end_ = 0;
  std::atomic<std::size_t> next_{0};
};

}  // namespace tsan_detail
#endif

template <class Body>
void parallel_for(std::size_t begin, std::size_t end, Body&& body) {
#if HYDRA_TSAN
  // None for a single index: nothing can run beside it.
  if (end <= begin) return;
  if (end - begin == 1) {
    body(begin);
    return;
  }
  const std::function<void(std::size_t)> f = std::ref(body);
  if (tsan_detail::Workers::get().run(begin, end, f)) return;
  const auto threads = std::min<std::size_t>(end - begin, tsan_detail::loop_threads());
  std::atomic<std::size_t> next{begin};
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (std::size_t t = 0; t < threads; ++t) pool.emplace_back([&] { tsan_detail::pull(next, end, f); });
  for (auto& th : pool) th.join();
#else
  tbb::parallel_for(begin, end, std::forward<Body>(body));
#endif
}

}  // namespace hydra
