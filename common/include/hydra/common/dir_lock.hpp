#pragma once

// One writer per run directory (docs/TRAINING.md "One run, one directory"): the process that
// trains, pretrains or fits the GRP into a run directory holds an exclusive flock(2) on the file
// RUN_DIR/lock for as long as it runs. The kernel drops the lock when the process ends, however
// it ends (kill -9 included), so a directory left by a killed run is taken over without guessing
// whether a recorded pid is still alive; a second process started into a directory whose writer
// lives is refused before it writes anything, with an error naming that writer's pid and command.

#include <filesystem>
#include <string>
#include <string_view>

namespace hydra {

class DirLock {
 public:
  // Creates `dir` (and its parents) if missing, then takes RUN_DIR/lock and writes this process's
  // pid and command line into it. `who` names the caller in the error ("train", "pretrain").
  // A hydra::Error when a live process holds the lock (naming its pid and command, or this
  // process when it is the holder) or when the file cannot be made or locked.
  DirLock(const std::filesystem::path& dir, std::string_view who);
  // Removes the lock file and releases the lock (a killed process leaves the file, unlocked).
  ~DirLock();
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  // RUN_DIR/lock.
  static std::filesystem::path file_in(const std::filesystem::path& dir) { return dir / "lock"; }

 private:
  std::filesystem::path dir_;
  int fd_ = -1;
};

}  // namespace hydra
