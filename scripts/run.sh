#!/usr/bin/env bash
# The main job for a new user: sets up what is missing, builds, and trains the quickstart model
# (docs/TRAINING.md) on the CPU, or the GPU when there is one, for a few minutes, then evaluates
# the trained checkpoint against the random bot in a 1v3 duplicate.
#   scripts/run.sh [CONFIG] [-- extra hydra train flags]
# Run it again to start over; `hydra train --config CONFIG --resume` continues a run instead.
set -euo pipefail
source "$(dirname "$0")/common.sh"
config=$HYDRA_ROOT/configs/quickstart.json
if [ $# -gt 0 ] && [ "$1" != "--" ]; then config=$1; shift; fi
[ "${1:-}" = "--" ] && shift
"$HYDRA_ROOT/scripts/setup.sh"
build_dir=$("$HYDRA_ROOT/scripts/build.sh")
hydra=$build_dir/apps/hydra
cd "$HYDRA_ROOT"
run_dir=$("$hydra" config show --config "$config" | "$HYDRA_VENV/bin/python" -c 'import json,sys; print(json.load(sys.stdin)["run"]["dir"])')

say "hydra info"
"$hydra" info
# A fresh run each time: the run directory holds the previous run's checkpoints otherwise.
rm -rf "$run_dir"
say "training ($config) -> $run_dir (bounded by train.max_updates and train.max_minutes; Ctrl-C stops with a checkpoint)"
"$hydra" train --config "$config" "$@"
ckpt=$run_dir/checkpoints/$(cat "$run_dir/checkpoints/latest")
if "$hydra" eval --challenger "$ckpt" --champion bot:random --seeds 1 --seed 1 > /dev/null 2>&1; then
  say "evaluation: $ckpt vs bot:random, 1v3 duplicate over 100 wall seeds"
  "$hydra" --log-file "$run_dir/eval.log" eval --challenger "$ckpt" --champion bot:random --seeds 100 --seed 1
else
  say "evaluation skipped: this build's hydra eval does not take checkpoints"
fi
say "done: run directory $run_dir (metrics.jsonl, tb/ for TensorBoard, checkpoints/, train.log)"
