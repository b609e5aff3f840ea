#include "hydra/selfplay/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wordexp.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"

extern char** environ;

namespace hydra::selfplay {
namespace {

int remaining_ms(BotProcess::Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - BotProcess::Clock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 1'000'000));
}

// Waits for `events` on fd until the deadline; false on timeout.
bool wait_fd(int fd, short events, BotProcess::Clock::time_point deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int r = ::poll(&p, 1, remaining_ms(deadline));
    if (r > 0) return true;
    if (r == 0) return false;
    if (errno != EINTR) return true;  // let the read or write report the error
  }
}

}  // namespace

BotProcess::BotProcess(std::vector<std::string> argv, const std::filesystem::path& stderr_log) {
  if (argv.empty()) throw Error("an external agent needs a command");
  const std::string command = command_line(argv);
  const int err = ::open(stderr_log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (err < 0) throw Error(stderr_log.string() + ": cannot open the stderr log: " + std::strerror(errno));
  int sv[2] = {-1, -1}, out[2] = {-1, -1};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0 || ::pipe2(out, O_CLOEXEC) != 0) {
    const std::string why = std::strerror(errno);
    for (int fd : {err, sv[0], sv[1], out[0], out[1]})
      if (fd >= 0) ::close(fd);
    throw Error("cannot start '" + command + "': " + why);
  }
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err, 2);
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> args;
  for (std::string& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  const int rc = ::posix_spawnp(&pid_, args[0], &fa, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(sv[1]);
  ::close(out[1]);
  ::close(err);
  if (rc != 0) {
    ::close(sv[0]);
    ::close(out[0]);
    pid_ = -1;
    throw Error("cannot start '" + command + "': " + std::strerror(rc));
  }
  in_ = sv[0];
  out_ = out[0];
  ::fcntl(out_, F_SETFL, ::fcntl(out_, F_GETFL) | O_NONBLOCK);
  ::fcntl(in_, F_SETFL, ::fcntl(in_, F_GETFL) | O_NONBLOCK);
}

BotProcess::~BotProcess() {
  kill();
  if (in_ >= 0) ::close(in_);
  if (out_ >= 0) ::close(out_);
}

BotProcess::Status BotProcess::write_line(std::string_view line, Clock::time_point deadline) {
  std::string data(line);
  data += '\n';
  std::size_t done = 0;
  while (done < data.size()) {
    if (in_ < 0) return Status::closed;
    const ssize_t n = ::send(in_, data.data() + done, data.size() - done, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      done += ix(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!wait_fd(in_, POLLOUT, deadline)) return Status::timeout;
      continue;
    }
    return Status::closed;  // EPIPE, ECONNRESET: the process is gone
  }
  return Status::ok;
}

BotProcess::Status BotProcess::read_line(std::string& line, Clock::time_point deadline) {
  for (;;) {
    if (const std::size_t nl = buffer_.find('\n'); nl != std::string::npos) {
      line.assign(buffer_, 0, nl);
      buffer_.erase(0, nl + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return Status::ok;
    }
    if (out_ < 0) return Status::closed;
    char chunk[4096];
    const ssize_t n = ::read(out_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, ix(n));
      continue;
    }
    if (n == 0) return Status::closed;
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return Status::closed;
    if (!wait_fd(out_, POLLIN, deadline)) return Status::timeout;
  }
}

// The leader is only reaped after its group was killed: while it is a zombie its pid (the group
// id) cannot be reused, so the kill can never reach another process group.
bool BotProcess::running() {
  if (pid_ <= 0 || reaped_) return false;
  siginfo_t info{};
  for (;;) {
    if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0) break;
    if (errno != EINTR) return false;
  }
  if (info.si_pid == 0) return true;
  exit_ = info.si_code == CLD_EXITED ? "exited with status " + std::to_string(info.si_status)
                                     : "killed by signal " + std::to_string(info.si_status) + " (" +
                                           strsignal(info.si_status) + ")";
  return false;
}

std::string BotProcess::exit_description() {
  (void)running();
  return exit_;
}

void BotProcess::kill() {
  if (pid_ <= 0 || reaped_) return;
  ::kill(-pid_, SIGKILL);  // the whole group: a wrapper's children too
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  reaped_ = true;
}

void BotProcess::close(std::chrono::milliseconds grace) {
  if (in_ >= 0) {
    ::shutdown(in_, SHUT_WR);
    ::close(in_);
    in_ = -1;
  }
  const auto deadline = Clock::now() + grace;
  while (running() && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  kill();
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string s;
  for (const std::string& a : argv) s += (s.empty() ? "" : " ") + a;
  return s;
}

std::vector<std::string> split_command(const std::string& command) {
  if (command.find_first_not_of(" \t") == std::string::npos) throw Error("an external agent needs a command");
  wordexp_t we{};
  const int rc = ::wordexp(command.c_str(), &we, WRDE_NOCMD | WRDE_UNDEF);
  if (rc != 0) {
    if (rc == WRDE_NOSPACE) ::wordfree(&we);
    const char* why = rc == WRDE_BADCHAR  ? "an unquoted | & ; < > ( ) { } or newline (quote it)"
                      : rc == WRDE_BADVAL ? "an undefined variable"
                      : rc == WRDE_CMDSUB ? "command substitution, which is not run"
                      : rc == WRDE_SYNTAX ? "a shell syntax error (an unbalanced quote?)"
                                          : "out of memory";
    throw Error("command '" + command + "': " + why);
  }
  std::vector<std::string> words(we.we_wordv, we.we_wordv + we.we_wordc);
  ::wordfree(&we);
  if (words.empty()) throw Error("command '" + command + "': no words");
  return words;
}

}  // namespace hydra::selfplay
