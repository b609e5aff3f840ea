#!/usr/bin/env bash
# The main job for a new user: sets up what is missing, builds, and runs the learning pipeline
# at a budget of about ten minutes on the CPU (docs/TRAINING.md "Learning check"): 1,000 greedy
# self-play games -> behaviour cloning on them -> the GRP reward model -> PPO from the BC
# checkpoint for 5 minutes -> 1v3 duplicates against bot:greedy (a bot that plays mahjong: it
# goes for the fastest hand), with bot:random against bot:greedy as the no-learning reference.
#   scripts/run.sh [--out DIR] [--games N] [--bc-steps N] [--minutes M] [--seeds N] [-- train flags]
# The full acceptance protocol is scripts/learning_check.sh with its defaults (about 2.5 hours).
# Run it again to start over.
set -euo pipefail
source "$(dirname "$0")/common.sh"
"$HYDRA_ROOT/scripts/setup.sh"
build_dir=$("$HYDRA_ROOT/scripts/build.sh")
say "hydra info"
"$build_dir/apps/hydra" info
exec "$HYDRA_ROOT/scripts/learning_check.sh" --build-dir "$build_dir" --out "$HYDRA_ROOT/runs/quickstart" \
  --games 1000 --bc-steps 300 --minutes 5 --seeds 50 "$@"
