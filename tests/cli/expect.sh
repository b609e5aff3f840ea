#!/usr/bin/env bash
# expect.sh EXIT_CODE PATTERN -- COMMAND...: runs COMMAND, requires its exit code to be EXIT_CODE
# and its combined output to match the extended regex PATTERN.
set -u
want_rc=$1; pattern=$2; shift 3
out=$("$@" 2>&1); rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne "$want_rc" ]; then echo "expect.sh: exit code $rc, wanted $want_rc" >&2; exit 1; fi
if ! printf '%s\n' "$out" | grep -Eq -- "$pattern"; then echo "expect.sh: output does not match /$pattern/" >&2; exit 1; fi
