#!/usr/bin/env bash
# hydra replay --check --verify-encoder over three real Tenhou games: every event legal, every
# payment exact, and the encoder's incremental == full and suit-permutation checks at every
# decision point. Skips (exit 77) without HYDRA_TESTDATA.
set -u
hydra=$1
[ -n "${HYDRA_TESTDATA:-}" ] && [ -d "$HYDRA_TESTDATA/mjai" ] || { echo "HYDRA_TESTDATA not set: skipped"; exit 77; }
files=$(ls "$HYDRA_TESTDATA"/mjai/*.json.gz | head -n 3)
out=$("$hydra" replay --check --verify-encoder $files 2>&1); rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 0 ] || { echo "exit code $rc"; exit 1; }
[ "$(printf '%s\n' "$out" | grep -c '^pass .*encoder: [1-9][0-9]* decision points, [1-9][0-9]* permuted checks')" -eq 3 ] ||
  { echo "expected 3 passing files with encoder checks"; exit 1; }
printf '%s\n' "$out" | grep -q '3 files: 3 pass, 0 fail' || { echo "bad summary"; exit 1; }
