#pragma once

#include <stdexcept>
#include <string>

namespace hydra {

// The one error type for problems the user can fix (bad input files, bad configs, bad flags).
// Thrown anywhere, caught at the command boundary in apps/, printed as one line, exit code 1.
// Messages name the file and, where known, the line and the field.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Always-on invariant check (kept in release builds): for rules that must hold, not for user
// input. A failure is a bug in Hydra and is reported as an internal error.
class InvariantError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

[[noreturn]] void invariant_failed(const char* expr, const char* file, int line, const std::string& msg);

}  // namespace hydra

#define HYDRA_CHECK(cond, msg)                                              \
  do {                                                                      \
    if (!(cond)) [[unlikely]]                                               \
      ::hydra::invariant_failed(#cond, __FILE__, __LINE__, (msg));          \
  } while (false)
