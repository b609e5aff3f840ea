#!/usr/bin/env bash
# run_dir_lock.sh HYDRA: one run directory has one writer (docs/TRAINING.md "One run directory,
# one writer"). A second train (fresh or --resume), pretrain or grp pointed at the directory of a
# live training run is refused, naming the live process, and the first run's files stay as they
# were; after kill -9 of the first run the next one takes the directory over and resumes.
set -eu
hydra=$1
source "$(dirname "$0")/scratch.sh"
tiny=(--set run.threads=1 --set rules.length=kyoku --set model.blocks=1 --set model.channels=32
      --set selfplay.games=4 --set selfplay.baseline=bot:random --set ppo.rollout_samples=96
      --set ppo.minibatch=48 --set ppo.epochs=1 --set train.checkpoint_every=1 --set checkpoint.keep=0
      --device cpu --seed 7)
run=$dir/run
metric_steps() { python3 -c 'import json,sys; print(" ".join(str(json.loads(l)["step"]) for l in open(sys.argv[1]) if l.strip()))' "$1"; }

# The first run: alive, its first checkpoint written.
"$hydra" train "${tiny[@]}" --max-updates 100000 --run-dir "$run" > "$dir/first.out" 2>&1 &
pid=$!
ck1=$run/checkpoints/step-000000000001.ckpt
for _ in $(seq 1 6000); do  # up to 10 minutes: a loaded machine is slow, not wrong
  if [ -f "$ck1" ] && grep -Eq '"step": ?1[,}]' "$run/metrics.jsonl" 2> /dev/null; then break; fi
  kill -0 "$pid" 2> /dev/null || { cat "$dir/first.out"; fail "the first run ended early"; }
  sleep 0.1
done
[ -f "$ck1" ] || fail "the first run wrote no checkpoint in 10 minutes"
test -s "$run/lock"
[ "$(head -n 1 "$run/lock")" = "$pid" ] || fail "the lock file names $(head -n 1 "$run/lock"), not the first run ($pid)"
sums() { sha256sum "$run/config.json" "$run/seeds.json" "$ck1" "$ck1.sha256"; }
before=$(sums)

# Second writers: refused with status 1, naming the first run's pid and command, before writing.
second() {  # second NAME ARGS...: runs hydra ARGS, which must be refused
  local name=$1; shift
  local rc=0
  "$hydra" "$@" > "$dir/$name.out" 2>&1 || rc=$?
  cat "$dir/$name.out"
  [ "$rc" -eq 1 ] || fail "$name: exit code $rc, wanted 1"
  grep -Eq "error: [a-z]+: the run directory '$run' is in use by process $pid \(.*hydra.* train .*\): one run directory has one writer" "$dir/$name.out" ||
    fail "$name: no refusal naming process $pid"
}
second train train "${tiny[@]}" --max-updates 100000 --run-dir "$run"
second train_resume train "${tiny[@]}" --max-updates 100000 --run-dir "$run" --resume
second pretrain pretrain --device cpu --data "$dir/no-logs" --run-dir "$run"
second grp grp --device cpu --data "$dir/no-logs" --run-dir "$run"
[ "$(sums)" = "$before" ] || fail "a refused run changed the first run's files"
[ ! -e "$run/pretrain.log" ] && [ ! -e "$run/grp.log" ] || fail "a refused run wrote its log"

# The first run goes on writing one metrics record per update.
n=$(metric_steps "$run/metrics.jsonl" | wc -w)
for _ in $(seq 1 6000); do  # up to 10 minutes: a loaded machine is slow, not wrong
  [ "$(metric_steps "$run/metrics.jsonl" | wc -w)" -gt $((n + 1)) ] && break
  sleep 0.1
done
kill -0 "$pid" 2> /dev/null || { cat "$dir/first.out"; fail "the first run died"; }

# kill -9: the lock file stays, unlocked; the next run takes the directory over and resumes.
kill -9 "$pid"
wait "$pid" 2> /dev/null || true
first=$pid pid=
test -f "$run/lock"
# The newest checkpoint file bounds the run; the resume takes the newest complete one (the kill may
# have cut the last save short), and metrics then hold every update once.
max=$(( $(ls "$run"/checkpoints/step-*.ckpt | sed -n 's/.*step-0*\([0-9]*\)\.ckpt$/\1/p' | sort -n | tail -1) + 1 ))
"$hydra" train "${tiny[@]}" --max-updates "$max" --run-dir "$run" --resume > "$dir/takeover.out" 2>&1 ||
  { cat "$dir/takeover.out"; fail "the run after kill -9 failed"; }
last=$(sed -n 's/.*resumed from .*step-0*\([0-9]*\)\.ckpt at update.*/\1/p' "$dir/takeover.out")
[ -n "$last" ] || { cat "$dir/takeover.out"; fail "no resume"; }
[ ! -e "$run/lock" ] || fail "the lock file stayed after a run that ended"
steps=$(metric_steps "$run/metrics.jsonl")
[ "$steps" = "$(seq -s ' ' 1 "$max")" ] || fail "metrics steps '$steps', wanted 1..$max once each"
echo "run_dir_lock.sh: 4 second writers refused naming process $first; after kill -9 the directory was taken over at update $last"
