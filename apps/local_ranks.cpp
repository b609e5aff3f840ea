#include "local_ranks.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/common/local_port.hpp"
#include "torch_locate.hpp"

extern char** environ;

namespace hydra::apps {
namespace {

// How long the launcher lets the other ranks end by themselves after one failed.
constexpr std::chrono::seconds kRankGrace{30};

constexpr std::string_view kRankVariables[] = {"RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE",
                                               "MASTER_ADDR", "MASTER_PORT"};

// The ranks, for the signal handler (async-signal-safe: a fixed array and kill()).
constexpr int kMaxRanks = 1024;
pid_t g_ranks[kMaxRanks];
volatile sig_atomic_t g_started = 0;

extern "C" void forward_signal(int sig) {
  for (int i = 0; i < g_started; ++i)
    if (g_ranks[i] > 0) ::kill(g_ranks[i], sig);
}

bool is_rank_variable(std::string_view entry) {
  for (const std::string_view v : kRankVariables)
    if (entry.size() > v.size() && entry.starts_with(v) && entry[v.size()] == '=') return true;
  return false;
}

// argv without --nproc N / --nproc=N.
std::vector<std::string> rank_arguments() {
  std::vector<std::string> out;
  char** argv = saved_argv();
  HYDRA_CHECK(argv != nullptr, "run_local_ranks: the command line was not saved");
  for (int i = 0; argv[i] != nullptr; ++i) {
    const std::string_view a = argv[i];
    if (a == "--nproc") {
      if (argv[i + 1] != nullptr) ++i;
      continue;
    }
    if (a.starts_with("--nproc=")) continue;
    out.emplace_back(a);
  }
  return out;
}

std::string describe(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("was killed by signal ") + ::strsignal(WTERMSIG(status));
  return "ended";
}

}  // namespace

int run_local_ranks(int nproc) {
  if (nproc > kMaxRanks) throw Error("--nproc " + std::to_string(nproc) + ": at most " + std::to_string(kMaxRanks));
  if (std::getenv("RANK") != nullptr || std::getenv("WORLD_SIZE") != nullptr)
    throw Error("--nproc: RANK or WORLD_SIZE is already set: this process is a rank of torchrun or srun, which "
                "start the ranks themselves (leave out --nproc there)");
  const std::vector<std::string> args = rank_arguments();
  const int port = free_local_port();
  std::vector<std::string> base;
  for (char** e = environ; *e != nullptr; ++e)
    if (!is_rank_variable(*e)) base.emplace_back(*e);
  base.push_back("WORLD_SIZE=" + std::to_string(nproc));
  base.push_back("LOCAL_WORLD_SIZE=" + std::to_string(nproc));
  base.push_back("MASTER_ADDR=127.0.0.1");
  base.push_back("MASTER_PORT=" + std::to_string(port));

  struct sigaction forward {};
  forward.sa_handler = forward_signal;
  sigemptyset(&forward.sa_mask);
  struct sigaction old_int {}, old_term {};
  ::sigaction(SIGINT, &forward, &old_int);
  ::sigaction(SIGTERM, &forward, &old_term);

  std::fprintf(stderr, "hydra: starting %d local ranks (rendezvous 127.0.0.1:%d)\n", nproc, port);
  std::fflush(stderr);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // Each rank in a process group of its own: a Ctrl-C at the terminal reaches the launcher alone,
  // which passes it on once (a second SIGINT would kill a rank in the middle of its checkpoint).
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  for (int r = 0; r < nproc; ++r) {
    std::vector<std::string> env = base;
    env.push_back("RANK=" + std::to_string(r));
    env.push_back("LOCAL_RANK=" + std::to_string(r));
    std::vector<char*> envp;
    for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    pid_t pid = 0;
    const int rc = ::posix_spawn(&pid, "/proc/self/exe", nullptr, &attr, argv.data(), envp.data());
    if (rc != 0) {
      posix_spawnattr_destroy(&attr);
      forward_signal(SIGTERM);
      throw Error("--nproc: cannot start rank " + std::to_string(r) + ": " + std::strerror(rc));
    }
    g_ranks[r] = pid;
    g_started = r + 1;
  }
  posix_spawnattr_destroy(&attr);

  int result = 0;
  std::vector<int> status(ix(nproc), 0);
  // Once a rank has failed, the others normally fail too at their next collective (or within
  // run.dist_timeout); a rank that is still there kRankGrace later (stopped, or hung outside
  // any collective) is killed, so the launcher never waits forever.
  using Clock = std::chrono::steady_clock;
  bool grace = false;  // a rank failed and the others still run: kill them at kill_at
  Clock::time_point kill_at = Clock::now();
  int failed = -1;
  for (int left = nproc; left > 0;) {
    int st = 0;
    const pid_t pid = ::waitpid(-1, &st, grace ? WNOHANG : 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (pid == 0) {
      if (Clock::now() < kill_at) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        continue;
      }
      for (int r = 0; r < nproc; ++r)
        if (g_ranks[r] > 0) {
          std::fprintf(stderr, "hydra: rank %d of %d still runs %d s after rank %d failed: killing it\n", r, nproc,
                       static_cast<int>(kRankGrace.count()), failed);
          ::kill(g_ranks[r], SIGKILL);  // also ends a stopped process
        }
      grace = false;  // the killed ranks are reaped by the blocking wait
      continue;
    }
    for (int r = 0; r < nproc; ++r)
      if (g_ranks[r] == pid) {
        status[ix(r)] = st;
        g_ranks[r] = 0;
        --left;
        if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
          std::fprintf(stderr, "hydra: rank %d of %d %s\n", r, nproc, describe(st).c_str());
          if (failed < 0) {
            failed = r;
            grace = true;
            kill_at = Clock::now() + kRankGrace;
          }
        }
      }
  }
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGTERM, &old_term, nullptr);
  for (const int st : status)
    if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
      result = WIFEXITED(st) ? WEXITSTATUS(st) : 1;
      break;
    }
  return result;
}

}  // namespace hydra::apps
