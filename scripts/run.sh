#!/usr/bin/env bash
# The main job for a new user: sets up what is missing, builds, and runs the shortest pipeline
# that shows PPO making a player stronger on this CPU, in about twelve minutes on 2 cores
# (docs/TRAINING.md "Learning check"): 4,000 greedy self-play games -> 150 steps of behaviour
# cloning on them (a briefly cloned player) -> the GRP reward model -> eight PPO updates from that
# checkpoint (configs/finetune_short.json: the advantages of greedy play-outs of every likely
# action, docs/PPO.md) -> a 1v3 duplicate over 400 wall seeds of PPO against
# its start, argmax play (how hydra eval, bot and review play). Every stage is seeded and PPO
# stops at an update count, so any machine computes the same run, only faster or slower. It ends
# by saying what it shows.
#   scripts/run.sh [--full] [learning_check.sh options]
# --full: the two-hour protocol (docs/PPO.md "Two hours with 64 walls"): a fully cloned player (900
# BC steps), 30 updates of configs/finetune.json, duplicates over 1,000 seeds in both play modes
# against the start and against bot:greedy; about 2.5 hours on 2 cores, more on a slower one.
# Run it again to start over.
set -euo pipefail
source "$(dirname "$0")/common.sh"
full=0
if [ "${1:-}" = --full ]; then full=1; shift; fi
"$HYDRA_ROOT/scripts/setup.sh"
build_dir=$("$HYDRA_ROOT/scripts/build.sh")
say "hydra info"
"$build_dir/apps/hydra" info
if [ "$full" = 1 ]; then
  "$HYDRA_ROOT/scripts/learning_check.sh" --build-dir "$build_dir" --out "$HYDRA_ROOT/runs/full" \
    --updates 30 --minutes 0 "$@"
  cat << 'TEXT'

What this run shows, plainly: whether PPO made a fully cloned player stronger. Measured on the
2-core development machine with these seeds (docs/PPO.md): PPO against its BC start 2.374 [2.343, 2.405]
over 1,000 wall seeds (2.5 is par), and against the fixed bot:greedy PPO places
0.100 [0.063, 0.138] better than BC on the same walls, in argmax play (how hydra eval, bot and
review play by default). The verdict above says whether this run reproduced it.
TEXT
  exit 0
fi
"$HYDRA_ROOT/scripts/learning_check.sh" --build-dir "$build_dir" --out "$HYDRA_ROOT/runs/main" \
  --bc-steps 150 --config configs/finetune_short.json --minutes 0 --seeds 400 --evals start "$@"
cat << 'TEXT'

What this run shows, plainly: eight PPO updates (about 178,000 learner decisions, each action the
policy found likely played out to the kyoku's end by the greedy bot on 8 fresh walls) made a
briefly cloned player (150 behaviour-cloning steps on the greedy bot's games) stronger than it
was, in the duplicate above: the same 400 walls, PPO in one seat against three copies of its
start, argmax play. On the 2-core development machine it gave 2.303 [2.253, 2.352] (2.5 is par)
in 12 minutes. It does not show PPO improving a fully
cloned player: that takes about two hours here (scripts/run.sh --full, docs/PPO.md "Two hours
with 64 walls").
TEXT
