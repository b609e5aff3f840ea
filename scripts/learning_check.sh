#!/usr/bin/env bash
# Learning check (not a test; about 17 minutes on a loaded 2-core CPU, 10 of them training):
# trains the quickstart model from scratch against random-legal opponents, prints the learning
# curve (average rank of the learner's seats against the baseline, per update and as a moving
# average) and 1v3 duplicate evaluations against bot:random of the last checkpoint and of the
# untrained network (argmax and sampled play). Learning shows as the trained model's average rank
# with a 95% interval below 2.5 and below the untrained network's.
#   scripts/learning_check.sh [--build-dir DIR] [--minutes M] [--seeds N] [-- extra hydra train flags]
set -euo pipefail
source "$(dirname "$0")/common.sh"
build_dir=$HYDRA_ROOT/build; minutes=10; seeds=120
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
# The control: the same network untrained (one update at learning rate 0 leaves the initial
# weights), evaluated on the same wall seeds, so the gain is the training's, not argmax play's.
say "control: the untrained network (one update at lr 0)"
"$hydra" train --config configs/quickstart.json --run-dir "$run_dir/control" --device cpu \
  --set ppo.lr=0 --set ppo.lr_floor=0 --set selfplay.games=2 --max-updates 1 "$@" > "$run_dir/control.log" 2>&1
control=$run_dir/control/checkpoints/$(cat "$run_dir/control/checkpoints/latest")
evaluate() {  # NAME CHECKPOINT [eval flags]
  local name=$1 file=$2; shift 2
  "$hydra" eval --challenger "$file" --champion bot:random --seeds "$seeds" --seed 20261122 --device cpu --json "$@" \
    > "$run_dir/eval_$name.json" 2> "$run_dir/eval_$name.log"
  python3 - "$run_dir/eval_$name.json" "$name" << 'PY'
import json, sys
j = json.load(open(sys.argv[1]))
r = j["challenger_stats"]["avg_rank"]
lo, hi = r["ci95"]
print(f"{sys.argv[2]:<24} avg rank vs 3 x bot:random {r['value']:.3f}  95% CI [{lo:.3f}, {hi:.3f}]  ({j['games']} games)")
PY
}
say "final evals: 1v3 duplicate against bot:random over $seeds wall seeds (the same seeds for each)"
evaluate trained_argmax "$ckpt"
evaluate trained_sampled "$ckpt" --sample
evaluate untrained_argmax "$control"
evaluate untrained_sampled "$control" --sample
python3 - "$run_dir/eval_trained_argmax.json" "$run_dir/eval_untrained_argmax.json" << 'PY'
import json, sys
t, u = (json.load(open(f))["challenger_stats"]["avg_rank"] for f in sys.argv[1:3])
if t["ci95"][1] < 2.5 and t["ci95"][1] < u["ci95"][0]:
    print("LEARNED: the trained model's interval lies below 2.5 and below the untrained network's")
else:
    print("NOT SHOWN: the trained model's interval does not lie below both 2.5 and the untrained network's")
PY
