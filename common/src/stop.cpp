#include "hydra/common/stop.hpp"

#include <atomic>
#include <csignal>

#include "hydra/common/error.hpp"

namespace hydra {
namespace {

// A signal handler may only touch lock-free atomics (or volatile sig_atomic_t).
std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);
std::atomic<bool> g_alive{false};
// request() sets its own flag: a later Ctrl-C still counts as the first signal.
std::atomic<bool> g_requested{false};

constexpr int kSignals[] = {SIGINT, SIGTERM};
struct sigaction g_previous[2];

extern "C" void on_stop_signal(int sig) {
  int expected = 0;
  if (g_signal.compare_exchange_strong(expected, sig)) return;
  // The second signal: the run did not stop in time, so let the default action kill it.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
  raise(sig);
}

}  // namespace

StopSignal::StopSignal() {
  HYDRA_CHECK(!g_alive.exchange(true), "only one StopSignal may be alive at a time");
  g_signal.store(0);
  g_requested.store(false);
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  // SA_RESTART: a blocking read or write in the loop carries on; the loop polls the flag.
  action.sa_flags = SA_RESTART;
  for (int i = 0; i < 2; ++i) sigaction(kSignals[i], &action, &g_previous[i]);
}

StopSignal::~StopSignal() {
  for (int i = 0; i < 2; ++i) sigaction(kSignals[i], &g_previous[i], nullptr);
  g_alive.store(false);
}

bool StopSignal::requested() const {
  return g_signal.load(std::memory_order_relaxed) != 0 || g_requested.load(std::memory_order_relaxed);
}

int StopSignal::signal() const { return g_signal.load(std::memory_order_relaxed); }

void StopSignal::request() { g_requested.store(true, std::memory_order_relaxed); }

}  // namespace hydra
