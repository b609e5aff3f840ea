#!/usr/bin/env bash
# train_ranks.sh HYDRA [TORCHRUN]: data-parallel hydra train on this machine (docs/DISTRIBUTED.md),
# two CPU ranks over Gloo.
#   1. `--nproc 2`: both ranks exit 0, rank 0 alone writes one metrics record per update and the
#      checkpoints; the first update learns from both ranks' games (more than one process's).
#   2. That 2-rank checkpoint resumes with 1 rank, and a 1-rank checkpoint with 2 ranks.
#   3. The same two ranks started by `torchrun --no-python` (the pinned torch venv's).
#   4. kill -9 of rank 1 in the middle of a run: the launcher exits non-zero within the run's
#      run.dist_timeout, naming the killed rank, rank 0 ends with an error naming the failed
#      collective and rank 1, and no temporary file stays in the run directory.
set -eu
hydra=$1
torchrun=${2:-}
source "$(dirname "$0")/scratch.sh"
tiny=(--set run.threads=1 --set rules.length=kyoku --set model.blocks=1 --set model.channels=32
      --set selfplay.games=4 --set selfplay.baseline=bot:random --set selfplay.pool_every=2
      --set ppo.rollout_samples=96 --set ppo.minibatch=48 --set ppo.epochs=2 --set run.dist_timeout=30
      --set train.checkpoint_every=1 --set train.tensorboard=false --device cpu --seed 7)
no_temp_files() {
  local left
  left=$(find "$1" \( -name '.*.tmp-*' -o -name '*.tmp[0-9]*' -o -name 'metrics.jsonl.tmp' \) -print)
  [ -z "$left" ] || fail "temporary files left: $left"
}

# 1. Two local ranks, beside one process with the same config and seed.
"$hydra" train "${tiny[@]}" --max-updates 1 --run-dir "$dir/one" > "$dir/one.out" 2>&1 || fail "1-rank run failed"
"$hydra" train "${tiny[@]}" --max-updates 2 --nproc 2 --run-dir "$dir/two" > "$dir/two.out" 2>&1 || fail "--nproc 2 failed"
grep -q "starting 2 local ranks" "$dir/two.out" || fail "no launcher line"
grep -q "2 ranks" "$dir/two.out" || fail "rank 0 did not report its 2 ranks"
grep -q "update 2 of 2" "$dir/two.out" || fail "rank 0 did not report the end of the run"
[ -f "$dir/two/checkpoints/step-000000000002.ckpt" ] || fail "no checkpoint of update 2"
ls "$dir/two" | grep -q rank && fail "rank 1 wrote into the run directory"
python3 - "$dir/one/metrics.jsonl" "$dir/two/metrics.jsonl" << 'PY' || fail "metrics of the 2-rank run"
import json, sys
one, two = ([json.loads(l) for l in open(f) if l.strip()] for f in sys.argv[1:3])
assert [r["step"] for r in two] == [1, 2], two
# Rank 0 plays the games of one process (the master seed itself) and rank 1 games of its own:
# the first update learns from both, more than the one process's rollout.
for key in ("selfplay/games", "selfplay/samples", "ppo/samples"):
    assert two[0][key] > one[0][key], (key, two[0][key], one[0][key])
PY

# 2. Resume across world sizes: 2 -> 1, then a 1-rank run -> 2.
"$hydra" train "${tiny[@]}" --max-updates 3 --run-dir "$dir/two" --resume > "$dir/two_to_one.out" 2>&1 ||
  fail "the 2-rank checkpoint did not resume with 1 rank"
grep -q "written by 2 rank(s), now 1" "$dir/two_to_one.out" || fail "the resume did not name the world sizes"
grep -q "update 3 of 3" "$dir/two_to_one.out" || fail "the 1-rank resume did not reach update 3"
"$hydra" train "${tiny[@]}" --max-updates 2 --nproc 2 --run-dir "$dir/one" --resume > "$dir/one_to_two.out" 2>&1 ||
  fail "the 1-rank checkpoint did not resume with 2 ranks"
grep -q "written by 1 rank(s), now 2" "$dir/one_to_two.out" || fail "the 2-rank resume did not name the world sizes"
grep -q "update 2 of 2" "$dir/one_to_two.out" || fail "the 2-rank resume did not reach update 2"

# 3. torchrun starts the same ranks.
if [ -n "$torchrun" ] && [ -x "$torchrun" ]; then
  "$torchrun" --no-python --standalone --nproc-per-node 2 "$hydra" train "${tiny[@]}" --max-updates 1 \
    --run-dir "$dir/torchrun" > "$dir/torchrun.out" 2>&1 || fail "torchrun --no-python failed"
  grep -q "2 ranks" "$dir/torchrun.out" || fail "under torchrun rank 0 did not report 2 ranks"
  [ -f "$dir/torchrun/checkpoints/step-000000000001.ckpt" ] || fail "no checkpoint under torchrun"
else
  echo "train_ranks.sh: no torchrun (the torch venv's bin/torchrun): the torchrun part is skipped"
fi

# 4. A rank killed in the middle of the run.
"$hydra" train "${tiny[@]}" --max-updates 1000 --nproc 2 --run-dir "$dir/killed" > "$dir/killed.out" 2>&1 &
pid=$!
rank1=
for _ in $(seq 1 6000); do  # up to 10 minutes: a loaded machine is slow, not wrong
  if grep -Eq '"step": ?1[,}]' "$dir/killed/metrics.jsonl" 2> /dev/null; then
    for child in $(pgrep -P "$pid"); do
      if tr '\0' '\n' < "/proc/$child/environ" 2> /dev/null | grep -qx 'RANK=1'; then rank1=$child; fi
    done
    [ -n "$rank1" ] && break
  fi
  kill -0 "$pid" 2> /dev/null || fail "the run ended before a rank was killed"
  sleep 0.1
done
[ -n "$rank1" ] || fail "rank 1 not found"
kill -9 "$rank1"
start=$(date +%s)
if wait "$pid"; then pid=; fail "the launcher exited 0 after a rank was killed"; fi
pid=
took=$(( $(date +%s) - start ))
[ "$took" -le 90 ] || fail "the other rank took ${took} s to end (run.dist_timeout is 30)"
grep -q "rank 1 of 2 was killed by signal" "$dir/killed.out" || fail "the launcher did not name the killed rank"
grep -q "hydra: error: distributed: .* failed: rank 1 of 2 stopped answering" "$dir/killed.out" ||
  fail "rank 0 did not name the failed collective and rank 1"
no_temp_files "$dir/killed"
echo "train_ranks.sh: 2 ranks, resume 2 -> 1 and 1 -> 2, torchrun, a killed rank ended the run in ${took} s"
