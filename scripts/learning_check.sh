#!/usr/bin/env bash
# Learning check (not a test; about 15 minutes on a 2-core CPU): trains the quickstart model from
# scratch against random-legal opponents, prints the learning curve (average rank of the
# learner's seats against the baseline, per update and as a moving average) and a final 1v3
# duplicate evaluation of the last checkpoint against bot:random. Learning shows as an average
# rank whose 95% interval lies below 2.5.
#   scripts/learning_check.sh [--build-dir DIR] [--minutes M] [--seeds N] [-- extra hydra train flags]
set -euo pipefail
source "$(dirname "$0")/common.sh"
build_dir=$HYDRA_ROOT/build; minutes=11; seeds=150
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build_dir=$2; shift 2 ;;
    --minutes) minutes=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "learning_check.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
hydra=$build_dir/apps/hydra
[ -x "$hydra" ] || { echo "learning_check.sh: $hydra is missing: build first (scripts/build.sh)" >&2; exit 1; }
run_dir=$HYDRA_ROOT/runs/learning_check
rm -rf "$run_dir"
cd "$HYDRA_ROOT"

say "training configs/quickstart.json from scratch on the CPU for at most $minutes minutes, 80% of games vs bot:random -> $run_dir"
"$hydra" train --config configs/quickstart.json --run-dir "$run_dir" --device cpu \
  --set selfplay.baseline=bot:random --set selfplay.opp_baseline=0.8 --set selfplay.opp_self=0.2 \
  --set selfplay.opp_pool=0 --max-updates 1000 --max-minutes "$minutes" "$@"

say "curve: average rank of the learner's seats vs bot:random per update (moving average over 5)"
python3 - "$run_dir/metrics.jsonl" << 'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
window = []
for r in recs:
    rank = r.get("rank/vs_baseline")
    if rank is None:
        continue
    window = (window + [(rank, r.get("rank/vs_baseline_games", 1))])[-5:]
    avg = sum(a * n for a, n in window) / sum(n for _, n in window)
    bar = "#" * int(round((4 - avg) * 20))
    print(f"update {r['step']:4d}  rank {rank:.3f}  avg5 {avg:.3f}  pi {r.get('loss/policy', 0):+.4f}  "
          f"H {r.get('loss/entropy', 0):.3f}  win {r.get('play/win_rate', 0):.3f}  {bar}")
PY

ckpt=$run_dir/checkpoints/$(cat "$run_dir/checkpoints/latest")
say "final eval: $ckpt vs bot:random, 1v3 duplicate over $seeds wall seeds"
"$hydra" eval --challenger "$ckpt" --champion bot:random --seeds "$seeds" --seed 20261122 --device cpu --json > "$run_dir/eval.json"
python3 - "$run_dir/eval.json" << 'PY'
import json, sys
j = json.load(open(sys.argv[1]))
r = j["challenger_stats"]["avg_rank"]
lo, hi = r["ci95"]
print(f"learner avg rank vs 3 x bot:random: {r['value']:.3f}, 95% CI [{lo:.3f}, {hi:.3f}] over {j['games']} games")
print("LEARNED: the interval excludes 2.5" if hi < 2.5 else "NOT SHOWN: the interval does not lie below 2.5")
PY
