// One torch CPU thread (tests/model/model_test_env.cpp explains why).

#include <gtest/gtest.h>

#include <torch/torch.h>

namespace {

class SingleThreaded : public ::testing::Environment {
 public:
  void SetUp() override { at::set_num_threads(1); }
};

[[maybe_unused]] const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new SingleThreaded);

}  // namespace
