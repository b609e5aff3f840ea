#include "hydra/common/dir_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <system_error>
#include <thread>

#include "hydra/common/error.hpp"

namespace hydra {

namespace fs = std::filesystem;

namespace {

std::string errno_text(int err) { return std::error_code(err, std::generic_category()).message(); }

std::string read_all(int fd) {
  std::string out;
  char buf[512];
  off_t at = 0;
  for (;;) {
    const ssize_t n = ::pread(fd, buf, sizeof buf, at);
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
    at += n;
    if (out.size() > 4096) break;
  }
  return out;
}

// This process's command line, arguments joined by spaces (Linux: /proc/self/cmdline), cut to
// 1,000 bytes; empty where /proc is missing.
std::string own_command() {
  const int fd = ::open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::string raw = read_all(fd);
  ::close(fd);
  while (!raw.empty() && raw.back() == '\0') raw.pop_back();
  for (char& c : raw)
    if (c == '\0' || c == '\n') c = ' ';
  if (raw.size() > 1000) raw = raw.substr(0, 997) + "...";
  return raw;
}

// "process PID (COMMAND)" from the lock file of a live holder. The holder writes its pid right
// after taking the lock, so an empty file is read again for up to a second.
std::string describe_holder(int fd) {
  std::string text;
  for (int i = 0; i < 20; ++i) {
    text = read_all(fd);
    if (text.find('\n') != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const std::size_t nl = text.find('\n');
  if (nl == std::string::npos || nl == 0) return "another process (it has not written its pid yet)";
  const std::string pid = text.substr(0, nl);
  std::string command = text.substr(nl + 1);
  while (!command.empty() && (command.back() == '\n' || command.back() == ' ')) command.pop_back();
  std::string out = pid == std::to_string(::getpid()) ? "this process (pid " + pid + ")" : "process " + pid;
  if (!command.empty()) out += " (" + command + ")";
  return out;
}

bool same_file(int fd, const fs::path& path) {
  struct stat held {}, named {};
  if (::fstat(fd, &held) != 0 || ::stat(path.c_str(), &named) != 0) return false;
  return held.st_dev == named.st_dev && held.st_ino == named.st_ino;
}

}  // namespace

DirLock::DirLock(const fs::path& dir, std::string_view who) : dir_(dir) {
  const std::string where = "run directory '" + dir.string() + "'";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error(std::string(who) + ": cannot create the " + where + ": " + ec.message());
  const fs::path file = file_in(dir);
  // The last holder removes the file as it ends: a lock taken on a file that is no longer the
  // one at the path is let go and taken again on the new one.
  for (int attempt = 0;; ++attempt) {
    const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw Error(std::string(who) + ": cannot open " + file.string() + ": " + errno_text(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      if (err == EWOULDBLOCK) {
        const std::string holder = describe_holder(fd);
        ::close(fd);
        throw Error(std::string(who) + ": the " + where + " is in use by " + holder +
                    ": one run directory has one writer; wait for that run to end or stop it, or choose another "
                    "directory (--run-dir)");
      }
      ::close(fd);
      throw Error(std::string(who) + ": cannot lock " + file.string() + ": " + errno_text(err));
    }
    if (same_file(fd, file)) {
      fd_ = fd;
      break;
    }
    ::close(fd);
    if (attempt >= 100) throw Error(std::string(who) + ": cannot lock " + file.string() + ": it keeps being replaced");
  }
  const std::string text = std::to_string(::getpid()) + "\n" + own_command() + "\n";
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())) {
    const int err = errno;
    ::close(fd_);
    throw Error(std::string(who) + ": cannot write " + file.string() + ": " + errno_text(err));
  }
}

DirLock::~DirLock() {
  if (fd_ < 0) return;
  // Removed while still held, so a process that opens the path afterwards makes a new file.
  std::error_code ec;
  fs::remove(file_in(dir_), ec);
  ::close(fd_);
}

}  // namespace hydra
