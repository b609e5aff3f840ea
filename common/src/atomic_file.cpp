#include "hydra/common/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>
#include <vector>

#include "hydra/common/error.hpp"
#include "hydra/common/log.hpp"
#include "hydra/common/index.hpp"

namespace hydra {
namespace {

namespace fs = std::filesystem;

// Owns a POSIX file descriptor.
struct Fd {
  int fd;
  explicit Fd(int f) : fd(f) {}
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
};

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

bool is_temp_name(const std::string& name) {
  // This version's `.NAME.tmp-PID`.
  if (const auto at = name.rfind(".tmp-"); name.starts_with('.') && at != std::string::npos && at > 1 &&
                                           all_digits(std::string_view(name).substr(at + 5)))
    return true;
  // Earlier versions: `NAME.tmpPID` (run config files) and `metrics.jsonl.tmp`.
  if (const auto at = name.rfind(".tmp"); at != std::string::npos && at > 0 && all_digits(std::string_view(name).substr(at + 4)))
    return true;
  return name == "metrics.jsonl.tmp";
}

struct CrashSpec {
  std::string name;
  long count = 0;  // 0: no crash point armed
};

CrashSpec read_crash_spec() {
  CrashSpec spec;
  const char* env = std::getenv("HYDRA_CRASH_AT");
  if (env == nullptr || *env == '\0') return spec;
  std::string text(env);
  spec.count = 1;
  if (const auto colon = text.rfind(':'); colon != std::string::npos && all_digits(std::string_view(text).substr(colon + 1))) {
    spec.count = std::strtol(text.c_str() + colon + 1, nullptr, 10);
    text.resize(colon);
  }
  spec.name = std::move(text);
  return spec;
}

}  // namespace

fs::path temp_path_for(const fs::path& file) {
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  // Built piecewise: GCC 12 reports a false -Wstringop-overflow on `"." + string + ...`.
  std::string name = ".";
  name += file.filename().string();
  name += ".tmp-";
  name += std::to_string(::getpid());
  return dir / name;
}

void fsync_path(const fs::path& path) {
  Fd f(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (f.fd >= 0) ::fsync(f.fd);
}

void write_file_atomic(const fs::path& file, std::string_view bytes, Durability durability) {
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  const fs::path tmp = temp_path_for(file);
  auto fail = [&](const std::string& what, const fs::path& which) {
    const std::string reason = std::strerror(errno);
    std::error_code ec;
    fs::remove(tmp, ec);
    throw Error("cannot " + what + " '" + which.string() + "': " + reason);
  };
  {
    Fd out(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (out.fd < 0) fail("create", tmp);
    std::size_t done = 0;
    bool halfway = false;
    while (done < bytes.size()) {
      const auto n = ::write(out.fd, bytes.data() + done, bytes.size() - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        fail("write", tmp);
      }
      if (n == 0) {
        errno = ENOSPC;
        fail("write", tmp);
      }
      done += ix(n);
      if (!halfway && done >= bytes.size() / 2) {
        halfway = true;
        crash_point("atomic:partial");
      }
    }
    if (durability == Durability::fsync && ::fsync(out.fd) != 0) fail("fsync", tmp);
    if (::close(out.fd) != 0) {
      out.fd = -1;
      fail("write", tmp);
    }
    out.fd = -1;
  }
  crash_point("atomic:written");
  if (::rename(tmp.c_str(), file.c_str()) != 0) fail("rename a temporary file onto", file);
  crash_point("atomic:renamed");
  if (durability == Durability::rename_only) return;
  // The rename itself is durable only once the folder entry is on disk.
  Fd d(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (d.fd < 0 || ::fsync(d.fd) != 0) throw Error("cannot fsync the folder of '" + file.string() + "': " + std::strerror(errno));
}

int remove_stale_temp_files(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return 0;
  std::vector<fs::path> stale;  // collected first: removing while iterating is unspecified
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (is_temp_name(entry.path().filename().string()) && entry.is_regular_file(ec)) stale.push_back(entry.path());
  int removed = 0;
  for (const fs::path& file : stale) {
    std::error_code rm;
    if (fs::remove(file, rm)) {
      ++removed;
      log::warn("removed the stale temporary file '{}' (a write interrupted earlier)", file.string());
    } else if (rm) {
      throw Error("cannot remove the stale temporary file '" + file.string() + "': " + rm.message());
    }
  }
  return removed;
}

int remove_orphan_sidecars(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return 0;
  std::vector<fs::path> orphans;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 7 && name.ends_with(".sha256") && !fs::exists(dir / name.substr(0, name.size() - 7), ec))
      orphans.push_back(entry.path());
  }
  for (const fs::path& side : orphans) {
    std::error_code rm;
    fs::remove(side, rm);
    if (rm) throw Error("cannot remove the orphan sidecar '" + side.string() + "': " + rm.message());
    log::warn("removed '{}': its file was never completed (or was pruned)", side.string());
  }
  return static_cast<int>(orphans.size());
}

void crash_point(std::string_view name) {
  static const CrashSpec spec = read_crash_spec();
  static std::atomic<long> passes{0};
  if (spec.count == 0 || name != spec.name) return;
  if (passes.fetch_add(1) + 1 == spec.count) {
    log::flush();
    ::kill(::getpid(), SIGKILL);
  }
}

}  // namespace hydra
