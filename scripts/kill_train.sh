#!/usr/bin/env bash
# Crash recovery of `hydra train`: kill -9 a small CPU training run (configs/quickstart.json with
# tiny sizes) again and again, at random moments and at the named crash points between the file
# operations of every atomic write and checkpoint save (HYDRA_CRASH_AT, common/atomic_file.hpp),
# and after every kill go on as a user would: `--resume` when a checkpoint survived, else a fresh
# start. Each run directory must reach its last update with
#   - every session either killed by us or ending with exit 0 (a refusal fails the test and
#     shows its message, which must say how to go on),
#   - metrics.jsonl holding every update exactly once, in order,
#   - the same losses as an uninterrupted run of the same seed,
#   - no temporary file (.NAME.tmp-PID, NAME.tmpPID, metrics.jsonl.tmp) and no sidecar without
#     its checkpoint left anywhere in the run directory.
#   scripts/kill_train.sh [--hydra BIN] [--kills N] [--seed S] [--updates U] [--points LIST]
# Defaults: build/apps/hydra, 24 kills, seed 1, 12 updates per run directory, random points.
# --points NAME:COUNT,... replaces the random choice with a fixed sequence (the CTest's small
# form); the word `time:SECONDS` in it kills after that many seconds instead.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
hydra=$here/build/apps/hydra; kills=24; seed=1; updates=12; points=
while [ $# -gt 0 ]; do
  case "$1" in
    --hydra) hydra=$2; shift 2 ;;
    --kills) kills=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --updates) updates=$2; shift 2 ;;
    --points) points=$2; shift 2 ;;
    *) echo "kill_train.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[ -x "$hydra" ] || { echo "kill_train.sh: no hydra binary at $hydra (--hydra BIN)" >&2; exit 2; }
[ "$kills" -ge 1 ] && [ "$updates" -ge 2 ] || { echo "kill_train.sh: --kills >= 1 and --updates >= 2" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "kill_train.sh: $*" >&2; exit 1; }

# Tiny sizes: a few seconds per session. keep=3 makes saves prune, checkpoint_every=2 makes
# several saves per session, tensorboard stays on as in the quickstart.
tiny=(--config "$here/configs/quickstart.json" --set run.threads=1 --set rules.length=kyoku
      --set model.blocks=1 --set model.channels=32 --set selfplay.games=4 --set selfplay.pool_every=2
      --set selfplay.refresh_every=2 --set ppo.rollout_samples=96 --set ppo.minibatch=48 --set ppo.epochs=1
      --set train.checkpoint_every=2 --set train.max_minutes=0 --set checkpoint.keep=3
      --device cpu --seed "$seed" --max-updates "$updates")

# The named crash points and how often a session passes each (the count drawn is within that).
named=(atomic:partial:8 atomic:written:8 atomic:renamed:8 checkpoint:old-removed:1 checkpoint:sidecar:3
       checkpoint:file:3 checkpoint:latest:3 checkpoint:pruned-file:2 metrics:truncated:1)
RANDOM=$seed
next_point() {  # prints NAME:COUNT or time:SECONDS
  if [ -n "$points" ]; then
    local list=(${points//,/ })
    echo "${list[$((point_index % ${#list[@]}))]}"
  elif [ $((RANDOM % 2)) -eq 0 ]; then
    local p=${named[$((RANDOM % ${#named[@]}))]}
    echo "${p%:*}:$((1 + RANDOM % ${p##*:}))"
  else
    echo "time:$((RANDOM % 60 / 10)).$((1 + RANDOM % 9))"
  fi
}

"$hydra" train "${tiny[@]}" --run-dir "$work/whole" > "$work/whole.out" 2>&1 || { cat "$work/whole.out"; fail "the uninterrupted run failed"; }

check_run() {  # $1: run directory
  python3 - "$work/whole/metrics.jsonl" "$1/metrics.jsonl" "$updates" << 'EOF' || return 1
import json, sys
whole = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
run = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
n = int(sys.argv[3])
steps = [r["step"] for r in run]
assert steps == list(range(1, n + 1)), f"metrics.jsonl steps {steps}"
for a, b in zip(whole, run):
    for tag in ("loss/policy", "loss/value", "loss/entropy", "ppo/approx_kl", "selfplay/games"):
        assert a[tag] == b[tag], f"update {a['step']}: {tag} {a[tag]} uninterrupted, {b[tag]} after the kills"
EOF
  local left
  left=$(find "$1" \( -name '.*.tmp-*' -o -name '*.tmp[0-9]*' -o -name 'metrics.jsonl.tmp' \) -print)
  [ -z "$left" ] || { echo "temporary files left: $left" >&2; return 1; }
  for side in "$1"/checkpoints/*.sha256; do
    [ -e "$side" ] || continue
    [ -f "${side%.sha256}" ] || { echo "a sidecar without its checkpoint: $side" >&2; return 1; }
  done
}

done_kills=0; runs=0; sessions=0; resumes=0; fresh=0; point_index=0
declare -A fired=()
while [ "$done_kills" -lt "$kills" ]; do
  runs=$((runs + 1))
  run=$work/run$runs
  finished=0
  for _ in $(seq 1 60); do
    mode=()
    if [ -n "$(ls "$run"/checkpoints/step-*.ckpt 2> /dev/null)" ]; then mode=(--resume); resumes=$((resumes + 1)); else fresh=$((fresh + 1)); fi
    sessions=$((sessions + 1))
    point=none
    if [ "$done_kills" -lt "$kills" ]; then point=$(next_point); point_index=$((point_index + 1)); fi
    out=$work/session$sessions.out
    limit=(); crash=
    case "$point" in
      none) ;;
      time:*) limit=(timeout -s KILL "${point#time:}") ;;
      *) crash=$point ;;
    esac
    rc=0
    HYDRA_CRASH_AT=$crash "${limit[@]}" "$hydra" train "${tiny[@]}" --run-dir "$run" "${mode[@]}" > "$out" 2>&1 || rc=$?
    if [ "$rc" -eq 137 ]; then
      done_kills=$((done_kills + 1))
      fired[${point%:*}]=$((${fired[${point%:*}]:-0} + 1))
      echo "kill $done_kills: run $runs session $sessions ${mode[*]:-(fresh)} killed at $point"
      continue
    fi
    [ "$rc" -eq 0 ] || { cat "$out" >&2; fail "run $runs session $sessions (${mode[*]:-fresh}, point $point) exited $rc"; }
    if grep -q "stopped at update $updates\|already at update $updates" "$out"; then finished=1; break; fi
  done
  [ "$finished" -eq 1 ] || fail "run $runs did not finish within 60 sessions"
  check_run "$run" || fail "run $runs is damaged (see above)"
  echo "run $runs: $updates updates, metrics once each, losses equal, no temporary file"
done
summary=""
for k in "${!fired[@]}"; do summary+=" $k=${fired[$k]}"; done
echo "kill_train.sh: $done_kills kills (${summary# }) over $runs run directories, $sessions sessions ($resumes with --resume, $fresh fresh starts); every run complete"
