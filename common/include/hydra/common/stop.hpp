#pragma once

// Clean shutdown on Ctrl-C: while a StopSignal is alive, SIGINT and SIGTERM set a lock-free
// atomic flag (async-signal-safe) that long loops poll between steps, so they can save a
// checkpoint and exit normally. A second signal restores the default action and re-raises it,
// so a stuck run can still be killed. Only one StopSignal may be alive at a time.

namespace hydra {

class StopSignal {
 public:
  StopSignal();   // installs the handlers
  ~StopSignal();  // restores the previous handlers
  StopSignal(const StopSignal&) = delete;
  StopSignal& operator=(const StopSignal&) = delete;

  bool requested() const;
  int signal() const;  // the signal received, 0 when none (also after request() alone)
  // Asks loops to stop as a first signal would (tests, --max-minutes); a Ctrl-C after it still
  // counts as the first signal, not the killing second one.
  void request();
};

}  // namespace hydra
