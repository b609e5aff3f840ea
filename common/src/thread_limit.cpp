#include "hydra/common/thread_limit.hpp"

#include <oneapi/tbb/global_control.h>
#include "hydra/common/index.hpp"

namespace hydra {

struct ThreadLimit::Impl {
  explicit Impl(std::size_t threads) : limit(oneapi::tbb::global_control::max_allowed_parallelism, threads) {}
  oneapi::tbb::global_control limit;
};

ThreadLimit::ThreadLimit(int threads) {
  if (threads > 0) impl_ = std::make_unique<Impl>(ix(threads));
}

ThreadLimit::~ThreadLimit() = default;

int ThreadLimit::active() {
  return static_cast<int>(oneapi::tbb::global_control::active_value(oneapi::tbb::global_control::max_allowed_parallelism));
}

}  // namespace hydra
