#!/usr/bin/env bash
# Sets up what is missing, builds, and runs the whole test suite (CTest + GoogleTest).
#   scripts/test.sh                      all tests, release build
#   scripts/test.sh --sanitize address   the pure C++ tests under ASan + UBSan
#   scripts/test.sh --sanitize thread    the threaded tests (label `threaded`) under TSan
# Extra arguments after `--` go to ctest (e.g. -- -R Config).
set -euo pipefail
source "$(dirname "$0")/common.sh"

sanitize=""; ctest_extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --sanitize) sanitize=$2; shift 2 ;;
    --) shift; ctest_extra=("$@"); break ;;
    *) echo "test.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done

"$HYDRA_ROOT/scripts/setup.sh"
build_args=()
ctest_args=(--output-on-failure --timeout 600 -j "$(jobs_default)")
case "$sanitize" in
  "") ;;
  # LibTorch is not built with sanitizers; the sanitized builds cover the pure C++ libraries.
  address) build_args=(--sanitize address --no-torch)
           export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ;;
  # Under TSan only the `threaded` test programs are built, and of their tests those whose point is
  # concurrency: named for threads or parallel steps (one and two threads compared, a thread limit,
  # parallel loops), and the bot processes' reader threads. The rest of those programs check what
  # one thread does, which the release and ASan stages run; under TSan (5-25 times slower) they were
  # most of CI's time (docs/BUILDING.md "Keeping builds fast").
  thread) build_args=(--sanitize thread --no-torch --target hydra_threaded_tests)
          ctest_args+=(-L threaded -R 'Thread|Parallel|ExternalAgent\.|BotProcess\.')
          export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 ;;
  *) echo "test.sh: --sanitize must be address or thread" >&2; exit 2 ;;
esac
build_dir=$("$HYDRA_ROOT/scripts/build.sh" "${build_args[@]}" )
[ -n "${HYDRA_TESTDATA:-}" ] && say "real data: $HYDRA_TESTDATA" || say "HYDRA_TESTDATA not set: real-data tests will be skipped"
say "running tests in $build_dir"
cd "$build_dir"
ctest "${ctest_args[@]}" "${ctest_extra[@]}"
