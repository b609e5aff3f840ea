#pragma once

// A child process that speaks a line protocol over its stdin and stdout (the mjai bots of
// external_agent.hpp). posix_spawnp starts it in a process group of its own, so a hang or a
// crash ends the whole group (a shell wrapper and the interpreter it started) and nothing is left
// behind. Its stdin is one end of a socket pair written with MSG_NOSIGNAL, so a child that died
// gives an error to report, not a SIGPIPE that would end Hydra; its stderr is appended to a log
// file (the per-seat logs of docs/EVAL.md), never a pipe that could fill up and block it.
//
// Every read and write has a deadline; none of them blocks longer. Not thread-safe: one owner
// at a time (an agent during a game, the pool between games).

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace hydra::selfplay {

class BotProcess {
 public:
  using Clock = std::chrono::steady_clock;

  // Starts argv[0] (searched on PATH) with the arguments; stderr is appended to `stderr_log`.
  // Throws hydra::Error naming the command when it cannot be started (no such program, no
  // permission, the log cannot be opened).
  BotProcess(std::vector<std::string> argv, const std::filesystem::path& stderr_log);
  ~BotProcess();  // kills the group when still running
  BotProcess(const BotProcess&) = delete;
  BotProcess& operator=(const BotProcess&) = delete;

  enum class Status { ok, timeout, closed };  // closed: the process closed its end (it exited)

  // Writes `line` and a newline before the deadline.
  Status write_line(std::string_view line, Clock::time_point deadline);
  // Reads one line (without its newline, a trailing \r dropped) before the deadline.
  Status read_line(std::string& line, Clock::time_point deadline);

  // The process is still running (else exit_description() says how it ended).
  bool running();
  // "exited with status 3", "killed by signal 11 (Segmentation fault)"; empty while running.
  std::string exit_description();
  // SIGKILL to the group (a process that already exited leaves children behind) and reap it.
  void kill();
  // Closes stdin, gives the process `grace` to exit on its own, then kills it.
  void close(std::chrono::milliseconds grace);

  int pid() const { return pid_; }

 private:
  int pid_ = -1;
  int in_ = -1;   // our end of the child's stdin (a socket)
  int out_ = -1;  // the read end of the child's stdout (a pipe)
  std::string buffer_;  // bytes read past the last returned line
  std::string exit_;
  bool reaped_ = false;
};

// The words joined by spaces (for messages and logs).
std::string command_line(const std::vector<std::string>& argv);

// Splits a command into words as a POSIX shell does (quotes, backslashes, $VAR and ~ expanded;
// command substitution refused), by wordexp(3). Throws hydra::Error for an empty command, an
// unbalanced quote or a forbidden construct, naming the command.
std::vector<std::string> split_command(const std::string& command);

}  // namespace hydra::selfplay
