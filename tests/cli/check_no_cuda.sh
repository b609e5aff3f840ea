#!/usr/bin/env bash
# check_no_cuda.sh HYDRA: on a machine without a CUDA device, `hydra check --device cuda` and
# `hydra bench model --device cuda` print one error line and exit 1. Skipped (77) where CUDA is
# available: there the commands run for real (docs/GPU.md).
set -u
hydra=$1
if "$hydra" info --torch --json | grep -q '"cuda_available": true'; then
  echo "check_no_cuda.sh: CUDA is available here, nothing to test"
  exit 77
fi
for cmd in "check --device cuda" "bench model --device cuda" "bench selfplay --device cuda:1"; do
  # shellcheck disable=SC2086
  err=$("$hydra" $cmd 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" -ne 1 ]; then echo "hydra $cmd: exit $rc, expected 1"; exit 1; fi
  if [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ] || ! printf '%s' "$err" | grep -q "^hydra: error: device 'cuda.*': CUDA is not available"; then
    echo "hydra $cmd: expected one line 'hydra: error: device ...: CUDA is not available', got:"; printf '%s\n' "$err"; exit 1
  fi
done
echo "check_no_cuda.sh: --device cuda without CUDA is one error line, exit 1"
