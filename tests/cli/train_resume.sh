#!/usr/bin/env bash
# train_resume.sh HYDRA: kill -9 in the middle of a tiny training run, then --resume. The resumed
# run continues from the last checkpoint, ends at the asked update, its metrics.jsonl holds each
# update exactly once (records written after that checkpoint are dropped), and every loss equals
# the one of an uninterrupted run with the same seed.
set -eu
hydra=$1
source "$(dirname "$0")/scratch.sh"
updates=12
tiny=(--set run.threads=1 --set rules.length=kyoku --set model.blocks=1 --set model.channels=32
      --set selfplay.games=4 --set selfplay.baseline=bot:random --set selfplay.pool_every=2
      --set selfplay.refresh_every=2 --set ppo.rollout_samples=96 --set ppo.minibatch=48 --set ppo.epochs=2
      --set train.checkpoint_every=2 --set train.tensorboard=false --device cpu --seed 7 --max-updates $updates)

"$hydra" train "${tiny[@]}" --run-dir "$dir/whole" > "$dir/whole.out" 2>&1

"$hydra" train "${tiny[@]}" --run-dir "$dir/killed" > "$dir/killed.out" 2>&1 &
pid=$!
# Kill once the checkpoint of update 4 exists and update 5 has been recorded: the records of
# update 5 (and any later) must go, and the run must go on from update 4.
for _ in $(seq 1 6000); do  # up to 10 minutes: a loaded machine is slow, not wrong
  if [ -f "$dir/killed/checkpoints/step-000000000004.ckpt.sha256" ] &&
     grep -Eq '"step": ?5[,}]' "$dir/killed/metrics.jsonl" 2> /dev/null; then
    break
  fi
  if ! kill -0 "$pid" 2> /dev/null; then echo "train_resume.sh: the run ended before it was killed" >&2; exit 1; fi
  sleep 0.1
done
kill -9 "$pid"
wait "$pid" 2> /dev/null || true
pid=
last=$(cat "$dir/killed/checkpoints/latest")
echo "train_resume.sh: killed; latest checkpoint $last"

if "$hydra" train "${tiny[@]}" --run-dir "$dir/killed" > "$dir/again.out" 2>&1; then
  echo "train_resume.sh: a new run was started over existing checkpoints" >&2; exit 1
fi
grep -q "already holds checkpoints: pass --resume" "$dir/again.out"
if "$hydra" train "${tiny[@]}" --set model.channels=64 --run-dir "$dir/killed" --resume > "$dir/changed.out" 2>&1; then
  echo "train_resume.sh: a resume with another model was accepted" >&2; exit 1
fi
grep -q "model.channels: 32 in the run, 64 now" "$dir/changed.out"

"$hydra" train "${tiny[@]}" --run-dir "$dir/killed" --resume > "$dir/resumed.out" 2>&1
grep -q "resumed from .*$last" "$dir/resumed.out"
grep -q "update $updates of $updates" "$dir/resumed.out"

python3 - "$dir/whole/metrics.jsonl" "$dir/killed/metrics.jsonl" "$updates" << 'EOF'
import json, sys
whole = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
resumed = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
n = int(sys.argv[3])
steps = [r["step"] for r in resumed]
assert steps == list(range(1, n + 1)), f"resumed metrics steps {steps}"
assert [r["step"] for r in whole] == steps, "uninterrupted run steps differ"
for a, b in zip(whole, resumed):
    for tag in ("loss/policy", "loss/value", "loss/entropy", "ppo/approx_kl", "ppo/samples", "selfplay/games"):
        assert a[tag] == b[tag], f"update {a['step']}: {tag} {a[tag]} uninterrupted, {b[tag]} resumed"
print(f"train_resume.sh: {n} updates, resumed metrics equal the uninterrupted run's")
EOF
