#!/usr/bin/env bash
# train_signal.sh HYDRA: SIGINT during a tiny training run saves a checkpoint at the end of the
# current update and exits 0 with a message; the run directory holds config.json, seeds.json,
# train.log and metrics.jsonl, and --max-minutes stops a run the same way.
set -eu
hydra=$1
source "$(dirname "$0")/scratch.sh"
tiny=(--set run.threads=1 --set rules.length=kyoku --set model.blocks=1 --set model.channels=32
      --set selfplay.games=4 --set selfplay.baseline=bot:random --set ppo.rollout_samples=96
      --set ppo.minibatch=48 --set ppo.epochs=1 --set train.checkpoint_every=1000 --device cpu --max-updates 100000)

"$hydra" train "${tiny[@]}" --run-dir "$dir/run" > "$dir/out" 2>&1 &
pid=$!
for _ in $(seq 1 6000); do  # up to 10 minutes: a loaded machine is slow, not wrong
  if grep -Eq '"step": ?1[,}]' "$dir/run/metrics.jsonl" 2> /dev/null; then break; fi
  sleep 0.1
done
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
pid=
cat "$dir/out"
[ "$rc" -eq 0 ] || { echo "train_signal.sh: exit code $rc after SIGINT, wanted 0" >&2; exit 1; }
grep -q "stopped by a signal" "$dir/out"
step=$(sed -n 's/^train: .*: update \([0-9]*\) of 100000 (signal).*/\1/p' "$dir/out")
[ -n "$step" ] || { echo "train_signal.sh: no final line" >&2; exit 1; }
test -f "$dir/run/checkpoints/$(printf 'step-%012d.ckpt' "$step")"
grep -q "step-$(printf '%012d' "$step").ckpt" "$dir/run/checkpoints/latest"
for f in config.json seeds.json train.log metrics.jsonl; do test -s "$dir/run/$f"; done
# The seed was drawn (none given) and logged, and config.json records it.
seed=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["master_seed"])' "$dir/run/seeds.json")
grep -q "master seed $seed (drawn)" "$dir/run/train.log"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["run"]["seed"] == int(sys.argv[2])' "$dir/run/config.json" "$seed"

"$hydra" train "${tiny[@]}" --run-dir "$dir/run" --resume --max-minutes 0.01 > "$dir/out2" 2>&1
cat "$dir/out2"
grep -q "(max_minutes)" "$dir/out2"
echo "train_signal.sh: SIGINT and --max-minutes stop with a checkpoint after update $step"
