#!/usr/bin/env bash
# Games/s of bot:greedy in process against bot:greedy run as an external mjai process (`hydra bot`),
# side by side: both protocol flavours, processes reused across games or one per game, one seat
# or all four external (docs/EVAL.md "External agents", Overhead). Every row is the same 1v3
# duplicate (the reports agree but for the agent names: tests/cli/external_agents.sh).
#   scripts/bench_external.sh [--hydra build/apps/hydra] [--seeds 25] [--seed 1] [--threads 0]
set -euo pipefail
source "$(dirname "$0")/common.sh"
hydra=$HYDRA_ROOT/build/apps/hydra; seeds=25; seed=1; threads=0
while [ $# -gt 0 ]; do
  case "$1" in
    --hydra) hydra=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    *) echo "bench_external.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ext() { echo "$1:$hydra bot --model bot:greedy --seat {seat}"; }

run() {  # run LABEL CHALLENGER CHAMPION [FLAGS...]
  local label=$1 challenger=$2 champion=$3
  shift 3
  local t0 t1
  t0=$(date +%s.%N)
  "$hydra" eval --challenger "$challenger" --champion "$champion" --seeds "$seeds" --seed "$seed" \
    --threads "$threads" --json --mjai-logs "$work/logs" "$@" > "$work/out.json" 2> /dev/null
  t1=$(date +%s.%N)
  python3 - "$label" "$t0" "$t1" "$work/out.json" <<'PY'
import json, sys
label, t0, t1, path = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
r = json.load(open(path))
s = t1 - t0
print(f"| {label} | {r['games']} | {r['seeds_voided']} | {s:.1f} | {r['games'] / s:.1f} | {r['challenger_stats']['avg_rank']['value']:.3f} |")
PY
}

echo "| agents | games | void seeds | seconds | games/s | challenger avg rank |"
echo "|---|---|---|---|---|---|"
run "greedy in process (all seats)" bot:greedy bot:greedy
run "1 seat external, mjai.app, reused" "$(ext mjai.app)" bot:greedy
run "1 seat external, mjai.app, per game" "$(ext mjai.app)" bot:greedy --mjai-process-per-game
run "1 seat external, classic, reused" "$(ext mjai)" bot:greedy
run "1 seat external, classic, per game" "$(ext mjai)" bot:greedy --mjai-process-per-game
run "4 seats external, mjai.app, reused" "$(ext mjai.app)" "$(ext mjai.app)"
run "4 seats external, classic, reused" "$(ext mjai)" "$(ext mjai)"
