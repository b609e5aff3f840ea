#!/usr/bin/env bash
# The main job for a new user: sets up what is missing, builds, and runs Hydra on the built-in
# quickstart config (CPU when there is no GPU). Until `hydra train` lands it runs the most complete
# pipeline the binary has: self-play with built-in agents, a full rules check of the games it
# wrote, and a 1v3 duplicate evaluation of the greedy bot against the random bot.
#   scripts/run.sh [CONFIG]
set -euo pipefail
source "$(dirname "$0")/common.sh"
"$HYDRA_ROOT/scripts/setup.sh"
build_dir=$("$HYDRA_ROOT/scripts/build.sh")
hydra=$build_dir/apps/hydra
config=${1:-$HYDRA_ROOT/configs/quickstart.json}
cd "$HYDRA_ROOT"
run_dir=$("$hydra" config show --config "$config" | "$HYDRA_VENV/bin/python" -c 'import json,sys; print(json.load(sys.stdin)["run"]["dir"])')
seed=$("$hydra" config show --config "$config" | "$HYDRA_VENV/bin/python" -c 'import json,sys; s=json.load(sys.stdin)["run"]["seed"]; print(1 if s is None else s)')
mkdir -p "$run_dir"

say "hydra info"
"$hydra" info
say "effective config ($config) -> $run_dir/config.json"
"$hydra" config show --config "$config" | tee "$run_dir/config.json"
say "self-play: 16 hanchan, four random agents, seed $seed -> $run_dir/selfplay"
"$hydra" --log-file "$run_dir/hydra.log" selfplay --agents random,random,random,random --games 16 --seed "$seed" --out "$run_dir/selfplay"
say "rules check of those games"
"$hydra" --log-file "$run_dir/hydra.log" replay --check "$run_dir/selfplay/logs" | tail -n 1
if "$hydra" eval --help > /dev/null 2>&1; then
  say "evaluation: bot:greedy vs bot:random, 1v3 duplicate over 100 wall seeds"
  "$hydra" --log-file "$run_dir/hydra.log" eval --challenger bot:greedy --champion bot:random --seeds 100 --seed "$seed"
fi
say "done: outputs in $run_dir"
