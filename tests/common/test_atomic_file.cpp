// Crash-safe writes: the content is whole or old, a failed write (a full disk, simulated with
// RLIMIT_FSIZE) leaves no temporary file, stale temporary files of killed writers are removed,
// and a crash point kills the process where HYDRA_CRASH_AT names it.

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "hydra/common/atomic_file.hpp"
#include "hydra/common/error.hpp"

namespace hydra {
namespace {

namespace fs = std::filesystem;

class AtomicFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("hydra-atomic-" + std::to_string(::getpid()) + "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  static std::string read(const fs::path& f) {
    std::ifstream in(f, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  int entries() const {
    int n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
    return n;
  }
  fs::path dir;
};

TEST_F(AtomicFile, WritesWholeAndLeavesNoTemporaryFile) {
  write_file_atomic(dir / "a.json", "old\n");
  write_file_atomic(dir / "a.json", "new content\n");
  EXPECT_EQ(read(dir / "a.json"), "new content\n");
  EXPECT_EQ(entries(), 1);
  EXPECT_EQ(temp_path_for(dir / "a.json").filename().string(), ".a.json.tmp-" + std::to_string(::getpid()));
}

TEST_F(AtomicFile, AFullDiskLeavesTheOldFileAndNoPartialCopy) {
  write_file_atomic(dir / "ckpt", std::string(100, 'a'));
  // A file size limit fails write() with EFBIG the way a full disk fails it with ENOSPC.
  std::signal(SIGXFSZ, SIG_IGN);
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  rlimit small = old;
  small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string message;
  try {
    write_file_atomic(dir / "ckpt", std::string(64 * 1024, 'b'));
  } catch (const Error& e) {
    message = e.what();
  }
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &old), 0);
  std::signal(SIGXFSZ, SIG_DFL);
  EXPECT_NE(message.find("cannot write '" + temp_path_for(dir / "ckpt").string() + "'"), std::string::npos) << message;
  EXPECT_EQ(read(dir / "ckpt"), std::string(100, 'a'));
  EXPECT_EQ(entries(), 1) << "the partial temporary file stayed";
}

TEST_F(AtomicFile, RemovesStaleTemporaryFilesOnly) {
  for (const char* name : {".step-000000000004.ckpt.tmp-4242", ".latest.tmp-17", ".step-000000000004.ckpt.sha256.tmp-9",
                           "config.json.tmp12345", "metrics.jsonl.tmp"})
    std::ofstream(dir / name) << "partial";
  for (const char* name : {"config.json", ".hidden", "notes.tmp-draft", "step-000000000004.ckpt", "metrics.jsonl"})
    std::ofstream(dir / name) << "keep";
  EXPECT_EQ(remove_stale_temp_files(dir), 5);
  EXPECT_EQ(entries(), 5);
  EXPECT_TRUE(fs::exists(dir / "notes.tmp-draft"));
  EXPECT_EQ(remove_stale_temp_files(dir / "missing"), 0);
}

TEST_F(AtomicFile, ACrashPointKillsTheProcessOnTheNamedPass) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // a fresh process reads HYDRA_CRASH_AT anew
  const fs::path file = dir / "latest";
  // The child runs this test again from the start (its own pid, so its own `dir`): tell it ours,
  // without overwriting what the parent told it.
  ::setenv("HYDRA_TEST_CRASH_FILE", file.c_str(), 0);
  EXPECT_EXIT(
      {
        ::setenv("HYDRA_CRASH_AT", "atomic:written:2", 1);
        const fs::path target = std::getenv("HYDRA_TEST_CRASH_FILE");
        write_file_atomic(target, "one\n");  // the first pass goes by
        write_file_atomic(target, "two\n");  // killed before the rename
        std::exit(0);
      },
      ::testing::KilledBySignal(SIGKILL), "");
  EXPECT_EQ(read(file), "one\n");  // what the killed writer left: the old content and its temporary file
  EXPECT_EQ(entries(), 2);
  EXPECT_EQ(remove_stale_temp_files(dir), 1);
  ::unsetenv("HYDRA_TEST_CRASH_FILE");
  crash_point("atomic:written");  // this process never had the variable: nothing happens
}

}  // namespace
}  // namespace hydra
