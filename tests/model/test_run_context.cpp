// model::RunContext: the thread caps, the device and the run directory's hygiene that every
// command running the network shares (docs/ARCHITECTURE.md "Run setup").

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <ATen/Parallel.h>

#include "hydra/common/error.hpp"
#include "hydra/common/thread_limit.hpp"
#include "hydra/model/run_context.hpp"
#include "model_fixtures.hpp"

namespace hydra::model {
namespace {

namespace fs = std::filesystem;

class RunContextTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("hydra_run_context_" + std::to_string(::getpid()));
    testing::remove_tree(dir);
  }
  void TearDown() override { testing::remove_tree(dir); }
  static void touch(const fs::path& p) { std::ofstream(p) << "x"; }
  fs::path dir;
};

TEST_F(RunContextTest, CapsBothLibrariesAndResolvesTheDevice) {
  const int torch_before = at::get_num_threads();
  const int tbb_before = ThreadLimit::active();
  {
    const RunContext context(2, "cpu");
    EXPECT_EQ(at::get_num_threads(), 2);
    EXPECT_EQ(ThreadLimit::active(), std::min(2, tbb_before));
    EXPECT_TRUE(context.device().is_cpu());
  }
  EXPECT_EQ(ThreadLimit::active(), tbb_before);  // oneTBB's cap ends with the context
  limit_torch_threads(torch_before);             // LibTorch's is process-wide
  {
    const RunContext defaults(0, "cpu");  // 0: no cap set
    EXPECT_EQ(at::get_num_threads(), torch_before);
    EXPECT_EQ(ThreadLimit::active(), tbb_before);
  }
  try {
    const RunContext bad(0, "tpu");
    FAIL() << "an unknown device was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("tpu"), std::string::npos) << e.what();
  }
}

// What a killed session left goes; the run's own files stay.
TEST_F(RunContextTest, OwnRunDirRemovesWhatAKilledSessionLeft) {
  const RunContext context(0, "cpu");
  context.own_run_dir(dir);  // a new directory: made, with its checkpoints folder
  EXPECT_TRUE(fs::is_directory(dir / "checkpoints"));
  const fs::path ck = dir / "checkpoints";
  touch(dir / "config.json");
  touch(dir / ".config.json.tmp-4242");
  touch(ck / "step-000000000004.ckpt");
  touch(ck / "step-000000000004.ckpt.sha256");
  touch(ck / ".step-000000000008.ckpt.tmp-17");
  touch(ck / "step-000000000008.ckpt.sha256");  // its checkpoint never landed
  context.own_run_dir(dir);
  EXPECT_TRUE(fs::exists(dir / "config.json"));
  EXPECT_FALSE(fs::exists(dir / ".config.json.tmp-4242"));
  EXPECT_TRUE(fs::exists(ck / "step-000000000004.ckpt"));
  EXPECT_TRUE(fs::exists(ck / "step-000000000004.ckpt.sha256"));
  EXPECT_FALSE(fs::exists(ck / ".step-000000000008.ckpt.tmp-17"));
  EXPECT_FALSE(fs::exists(ck / "step-000000000008.ckpt.sha256"));
}

}  // namespace
}  // namespace hydra::model
