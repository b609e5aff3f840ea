// Every torch test binary runs with one torch CPU thread (HYDRA_TORCH_TEST_ENV in
// tests/CMakeLists.txt): results are then independent of the thread count, and tiny ops do not
// pay OpenMP's spin-waits, which on a loaded 2-core machine made them a hundred times slower.

#include <gtest/gtest.h>

#include <torch/torch.h>

namespace {

class SingleThreaded : public ::testing::Environment {
 public:
  void SetUp() override { at::set_num_threads(1); }
};

[[maybe_unused]] const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new SingleThreaded);

}  // namespace
