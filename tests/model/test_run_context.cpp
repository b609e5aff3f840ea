// model::RunContext: the thread caps, the device and the run directory's hygiene that every
// command running the network shares (docs/ARCHITECTURE.md "Run setup").

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
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
  RunContext context(0, "cpu");
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

// A child process that holds `dir` as its writer (common/dir_lock.hpp) until it is killed: it
// takes the lock, says so through a pipe, and sleeps. Returns its pid once it holds the lock.
pid_t child_holding(const fs::path& dir) {
  int ready[2];
  if (::pipe(ready) != 0) return -1;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(ready[0]);
    try {
      const DirLock lock(dir, "train");
      const char ok = 1;
      if (::write(ready[1], &ok, 1) != 1) ::_exit(2);
      for (;;) ::pause();
    } catch (...) {
      ::_exit(3);
    }
  }
  ::close(ready[1]);
  char ok = 0;
  const bool held = ::read(ready[0], &ok, 1) == 1 && ok == 1;
  ::close(ready[0]);
  return held ? pid : -1;
}

void kill_child(pid_t pid) {
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
}

std::string error_of(RunContext& context, const fs::path& dir) {
  try {
    context.own_run_dir(dir, "train");
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

// Another live process holds the directory: refused, naming it, and nothing is written there.
TEST_F(RunContextTest, OwnRunDirRefusesADirectoryALiveProcessHolds) {
  const pid_t child = child_holding(dir);
  ASSERT_GT(child, 0);
  RunContext context(0, "cpu");
  const std::string msg = error_of(context, dir);
  kill_child(child);
  EXPECT_NE(msg.find("train: the run directory '" + dir.string() + "' is in use by process " + std::to_string(child)),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("test_model"), std::string::npos) << "the holder's command: " << msg;
  EXPECT_FALSE(fs::exists(dir / "checkpoints")) << "the refused process wrote into the directory";
}

// A writer killed with SIGKILL leaves its lock file, which the next run takes over; the lock
// file then names the new writer, and goes when its context ends.
TEST_F(RunContextTest, OwnRunDirTakesOverFromAKilledWriter) {
  const pid_t child = child_holding(dir);
  ASSERT_GT(child, 0);
  kill_child(child);
  ASSERT_TRUE(fs::exists(DirLock::file_in(dir)));
  {
    RunContext context(0, "cpu");
    EXPECT_EQ(error_of(context, dir), "");
    EXPECT_TRUE(fs::is_directory(dir / "checkpoints"));
    std::ifstream in(DirLock::file_in(dir));
    std::string pid;
    std::getline(in, pid);
    EXPECT_EQ(pid, std::to_string(::getpid()));
    context.own_run_dir(dir, "train");  // again, the same directory: only cleans
    RunContext second(0, "cpu");        // a second writer in this very process is refused too
    const std::string msg = error_of(second, dir);
    EXPECT_NE(msg.find("in use by this process (pid " + std::to_string(::getpid()) + ")"), std::string::npos) << msg;
  }
  EXPECT_FALSE(fs::exists(DirLock::file_in(dir)));
  RunContext after(0, "cpu");
  EXPECT_EQ(error_of(after, dir), "");
}

}  // namespace
}  // namespace hydra::model
