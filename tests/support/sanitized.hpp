#pragma once

// The size of a heavy test's workload (games, decisions) in the sanitizer builds, which run the
// code 3 to 25 times slower (ASan + UBSan at -O1; TSan): the same checks on fewer games. The
// release build runs the full size.
namespace hydra::testing {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

constexpr int sized(int full, int sanitized) { return kSanitized ? sanitized : full; }

}  // namespace hydra::testing
