#!/usr/bin/env bash
# ranks_faults.sh HYDRA [TORCHRUN]: faults of a data-parallel run (CPU, Gloo; docs/DISTRIBUTED.md
# "Faults"), in train and in pretrain:
#   - rank 1 killed (kill -9) or stopped (SIGSTOP) in the middle of a gradient all-reduce: it
#     signals itself right after handing its N-th gradient sum to Gloo (HYDRA_FAULT);
#   - rank 1 stopped from outside at whatever it is doing, once a checkpoint exists;
#   - rank 0, which hosts the rendezvous store, killed in the middle of a gradient all-reduce;
#   - under torchrun --no-python (TORCHRUN, the torch venv's), rank 1 killed or stopped the same
#     way in train, and killed in pretrain (torchrun ends a stopped rank itself: SIGTERM, then
#     SIGKILL after its own 30 s).
# Each time the surviving rank ends with an error naming the failed collective and the rank that
# stopped answering, within run.dist_timeout (plus the 4 s in which it reads the heartbeats); the
# launcher ends within that plus its 30 s grace, naming the rank; no temporary file stays; and the
# run resumes from its last checkpoint with 1 rank and with 2. Two ranks started with different
# seeds both refuse before any step. Pretrain needs HYDRA_TESTDATA (its part is skipped without).
set -eu
hydra=$1
torchrun=${2:-}
source "$(dirname "$0")/scratch.sh"
no_temp_files() {
  local left
  left=$(find "$1" \( -name '.*.tmp-*' -o -name '*.tmp[0-9]*' -o -name 'metrics.jsonl.tmp' \) -print)
  [ -z "$left" ] || fail "temporary files left: $left"
}
timeout_s=10
train=(train --set run.threads=1 --set rules.length=kyoku --set model.blocks=1 --set model.channels=32
       --set selfplay.games=4 --set selfplay.baseline=bot:random --set ppo.rollout_samples=96 --set ppo.minibatch=48
       --set ppo.epochs=1 --set run.dist_timeout=$timeout_s --set train.checkpoint_every=1 --set train.tensorboard=false
       --device cpu --seed 7)
pretrain=()
if [ -n "${HYDRA_TESTDATA:-}" ] && [ -d "$HYDRA_TESTDATA/mjai" ]; then
  mkdir "$dir/logs"
  cp $(ls "$HYDRA_TESTDATA"/mjai/*.json.gz | head -n 6) "$dir/logs/"
  pretrain=(pretrain --data "$dir/logs" --device cpu --set run.threads=1 --set model.blocks=1 --set model.channels=32
            --set pretrain.batch=32 --set pretrain.val_fraction=0.3 --set pretrain.val_every=1000 --set train.checkpoint_every=1
            --set pretrain.val_max_samples=100 --set pretrain.shuffle_buffer=256 --set train.tensorboard=false
            --set run.dist_timeout=$timeout_s --set train.log_every=1 --seed 3)
fi

# ends NAME SIG RANK LAUNCHER START: checks how the run of $dir/NAME.out ended after RANK got SIG
# at START (seconds since the epoch): within the timeout, the survivor naming the collective and
# RANK, the launcher (hydra's --nproc or torchrun) naming RANK, no temporary file.
ends() {
  local name=$1 sig=$2 rank=$3 launcher=$4 start=$5 took
  took=$(( $(date +%s) - start ))
  [ "$took" -le $((timeout_s + 30 + 60)) ] || fail "$name: the run took ${took} s to end (run.dist_timeout $timeout_s s + 30 s grace)"
  grep -q "hydra: error: distributed: .* failed: rank $rank of 2 stopped answering" "$dir/$name.out" ||
    fail "$name: the surviving rank did not name the failed collective and rank $rank"
  if [ "$launcher" = hydra ]; then
    if [ "$sig" = STOP ]; then
      grep -q "rank $rank of 2 still runs 30 s after rank $((1 - rank)) failed: killing it" "$dir/$name.out" ||
        fail "$name: the stopped rank was not named"
    fi
    grep -q "rank $rank of 2 was killed by signal" "$dir/$name.out" || fail "$name: the launcher did not name rank $rank"
  fi
  no_temp_files "$dir/$name"
  echo "ranks_faults.sh: $name: SIG$sig to rank $rank, the run ended in ${took} s"
}

# inject NAME SIG RANK N [torchrun] COMMAND...: rank RANK of a 2-rank run sends itself SIG right
# after it started its N-th gradient sum, in the middle of the all-reduce.
inject() {
  local name=$1 sig=$2 rank=$3 n=$4 start
  shift 4
  local launch=(--nproc 2) launcher=hydra
  if [ "$1" = torchrun ]; then launcher=torchrun; shift; fi
  start=$(date +%s)
  if [ "$launcher" = torchrun ]; then
    HYDRA_FAULT=$rank:all_reduce:$n:$sig "$torchrun" --no-python --standalone --nproc-per-node 2 \
      "$hydra" "$@" --set train.max_updates=100000 --run-dir "$dir/$name" > "$dir/$name.out" 2>&1 &
  else
    HYDRA_FAULT=$rank:all_reduce:$n:$sig "$hydra" "$@" --set train.max_updates=100000 --nproc 2 \
      --run-dir "$dir/$name" > "$dir/$name.out" 2>&1 &
  fi
  pid=$!
  if wait "$pid"; then pid=; fail "$name: the launcher exited 0 after rank $rank got SIG$sig"; fi
  pid=
  ends "$name" "$sig" "$rank" "$launcher" "$start"
}

# outside NAME SIG COMMAND...: starts COMMAND with --nproc 2 into $dir/NAME, sends SIG to rank 1
# once a checkpoint exists, at whatever it is doing.
outside() {
  local name=$1 sig=$2
  shift 2
  "$hydra" "$@" --set train.max_updates=100000 --nproc 2 --run-dir "$dir/$name" > "$dir/$name.out" 2>&1 &
  pid=$!
  local rank1= child
  for _ in $(seq 1 6000); do  # up to 10 minutes: a loaded machine is slow, not wrong
    if ls "$dir/$name"/checkpoints/step-*.ckpt > /dev/null 2>&1; then
      for child in $(pgrep -P "$pid"); do
        if tr '\0' '\n' < "/proc/$child/environ" 2> /dev/null | grep -qx 'RANK=1'; then rank1=$child; fi
      done
      [ -n "$rank1" ] && break
    fi
    kill -0 "$pid" 2> /dev/null || fail "$name: the run ended before rank 1 was signalled"
    sleep 0.1
  done
  [ -n "$rank1" ] || fail "$name: rank 1 not found"
  kill "-$sig" "$rank1"
  local start
  start=$(date +%s)
  if wait "$pid"; then pid=; fail "$name: the launcher exited 0 after rank 1 got SIG$sig"; fi
  pid=
  if kill -0 "$rank1" 2> /dev/null; then fail "$name: rank 1 ($rank1) still exists"; fi
  ends "$name" "$sig" 1 hydra "$start"
}

# resume NAME COMMAND...: the last checkpoint resumes with 1 rank, then with 2, one update/step more each.
resume() {
  local name=$1 last
  shift
  last=$(ls "$dir/$name"/checkpoints/step-*.ckpt | sed -n 's/.*step-0*\([0-9]*\)\.ckpt$/\1/p' | sort -n | tail -1)
  "$hydra" "$@" --set train.max_updates=$((last + 1)) --run-dir "$dir/$name" --resume > "$dir/$name-one.out" 2>&1 ||
    fail "$name: no resume with 1 rank"
  [ -f "$dir/$name/checkpoints/$(printf 'step-%012d.ckpt' $((last + 1)))" ] || fail "$name: no checkpoint $((last + 1)) after the resume"
  "$hydra" "$@" --set train.max_updates=$((last + 2)) --nproc 2 --run-dir "$dir/$name" --resume > "$dir/$name-two.out" 2>&1 ||
    fail "$name: no resume with 2 ranks"
  [ -f "$dir/$name/checkpoints/$(printf 'step-%012d.ckpt' $((last + 2)))" ] || fail "$name: no checkpoint $((last + 2)) after the resume"
  no_temp_files "$dir/$name"
  echo "ranks_faults.sh: $name: resumed from $last with 1 rank and with 2"
}

# Two ranks started by hand (as torchrun would) with different seeds, or where one is given a
# seed and the other none: both refuse before any step, naming rank 1 and both seeds.
seeds() {  # seeds NAME SEED0 SEED1 EXPECTED (a seed "-" is none)
  local name=$1 s0=$2 s1=$3 expected=$4 r pids=() rc port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  for r in 0 1; do
    local s=$s0; [ "$r" = 1 ] && s=$s1
    local flag=(); [ "$s" != - ] && flag=(--seed "$s")
    env RANK=$r WORLD_SIZE=2 LOCAL_RANK=$r LOCAL_WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
      "$hydra" "${train[@]:0:${#train[@]}-2}" "${flag[@]}" --run-dir "$dir/$name" > "$dir/$name-$r.out" 2>&1 &
    pids+=($!)
  done
  for r in 0 1; do
    rc=0; wait "${pids[$r]}" || rc=$?
    [ "$rc" -eq 1 ] || fail "$name: rank $r exited $rc, wanted 1"
    grep -q "hydra: error: train: rank 1 was started with $expected (every rank of a run needs the same --seed, or none)" \
      "$dir/$name-$r.out" || fail "$name: rank $r did not name the seeds"
  done
  [ ! -e "$dir/$name/config.json" ] || fail "$name: a refused run wrote its config"
  echo "ranks_faults.sh: $name: both ranks refused: rank 1 was started with $expected"
}
seeds seeds-differ 7 8 "seed 8, rank 0 with seed 7"
seeds seed-missing - 8 "seed 8, rank 0 with no seed"

# Train: a checkpoint every update, a few gradient sums each (one bucket a minibatch): the 40th
# sum falls after the first checkpoint.
inject train-kill KILL 1 40 "${train[@]}"
resume train-kill "${train[@]}"
inject train-stop STOP 1 40 "${train[@]}"
outside train-stop-outside STOP "${train[@]}"
resume train-stop-outside "${train[@]}"
inject train-kill-rank0 KILL 0 40 "${train[@]}"
if [ -n "$torchrun" ] && [ -x "$torchrun" ]; then
  inject torchrun-kill KILL 1 40 torchrun "${train[@]}"
  resume torchrun-kill "${train[@]}"
  inject torchrun-stop STOP 1 40 torchrun "${train[@]}"
else
  echo "ranks_faults.sh: no torchrun (the torch venv's bin/torchrun): the torchrun part is skipped"
fi
if [ ${#pretrain[@]} -gt 0 ]; then
  # Pretrain: a gradient sum a step, a checkpoint every step.
  inject pretrain-kill KILL 1 5 "${pretrain[@]}"
  inject pretrain-stop STOP 1 5 "${pretrain[@]}"
  resume pretrain-stop "${pretrain[@]}"
  if [ -n "$torchrun" ] && [ -x "$torchrun" ]; then
    inject torchrun-pretrain-kill KILL 1 5 torchrun "${pretrain[@]}"
  fi
else
  echo "ranks_faults.sh: HYDRA_TESTDATA not set: the pretrain part is skipped"
fi
