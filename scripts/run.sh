#!/usr/bin/env bash
# The main job for a new user: sets up what is missing, builds, and runs the learning pipeline
# at a budget of about fifteen minutes on the CPU (docs/TRAINING.md "Learning check"): 1,000
# greedy self-play games -> behaviour cloning on them -> the GRP reward model -> PPO from the BC
# checkpoint for 5 minutes (configs/finetune.json) -> 1v3 duplicates over 200 wall seeds in both
# play modes against bot:greedy (a bot that plays mahjong: it goes for the fastest hand), with
# bot:random against bot:greedy as the no-learning reference. It ends by saying what it shows.
#   scripts/run.sh [--out DIR] [--games N] [--bc-steps N] [--minutes M] [--seeds N] [-- train flags]
# The full acceptance protocol is scripts/learning_check.sh with its defaults (about 2.5 hours).
# Run it again to start over.
set -euo pipefail
source "$(dirname "$0")/common.sh"
"$HYDRA_ROOT/scripts/setup.sh"
build_dir=$("$HYDRA_ROOT/scripts/build.sh")
say "hydra info"
"$build_dir/apps/hydra" info
"$HYDRA_ROOT/scripts/learning_check.sh" --build-dir "$build_dir" --out "$HYDRA_ROOT/runs/quickstart" \
  --games 1000 --bc-steps 300 --minutes 5 --seeds 200 "$@"
cat << 'EOF'

What this run shows, plainly: learning from logs. Against bot:greedy, bot:random (no learning)
places near 4 and the policy cloned from 1,000 greedy games far better (the lines above). Five
minutes of PPO are mostly its value warm-up, and the fine-tuning gain, if any, is far below what
200 wall seeds resolve: the verdict on PPO above is expected to be NOT SHOWN at this budget. The
question of whether PPO improves the clone is the full learning check (scripts/learning_check.sh,
about 2.5 hours here) and docs/PPO.md, which records what each run measured.
EOF
