#!/usr/bin/env bash
# The GPU run of docs/GPU.md in one go, sized to a deadline: on a CUDA machine with a packed
# bundle (scripts/package.sh) and the torch==2.11 (CUDA) package of python3 on PATH.
#   scripts/gpu_run.sh --hydra HYDRA --mjai DIR --houou DIR --out DIR [--deadline SECONDS]
#                      [--pretrain-minutes M] [--train-minutes M] [--selfplay-seconds S]
#                      [--steps check,selfplay,learner,model,pretrain,playouts,bot,train,eval,check_bc]
#                      [--baseline OLD_HYDRA] [--train-set KEY=VALUE]... [--check-set KEY=VALUE]...
#                      [--clone CKPT] [--playout-seconds S] [--playout-set KEY=VALUE]... [--bot-lines N]
#                      [--config FILE --device DEV --blocks B --channels C]  (a CPU rehearsal)
# Steps, in order of importance, each under its own time limit and never past the deadline:
# nvidia-smi, `hydra info --torch`, `hydra check` (configs/h100.json), `hydra bench selfplay` at
# 2,048 games, `bench learner` (as configured, with model.fused_norm, and with it at
# minibatches of 4,096; each with one more update profiled: its kernels by time and kind, how busy
# the GPU was, the Chrome trace gzipped into the results), `bench selfplay` as configured and
# without overlapping passes, `bench model` (as configured and with model.fused_norm), `hydra pretrain` of the 40 x 256 network on DIR (--houou),
# `bench selfplay` of configs/finetune_houou.json (every play-out played by the network itself) at
# 6 x 128 (from --clone, the Houou clone, when given) and at 40 x 256 (from the pretrained checkpoint),
# `hydra bot` on the first game of --mjai, seat 0, with that checkpoint plain and searched (and
# with --clone), its replies' times (--bot-lines N: only the game's first N lines),
# `hydra train --config configs/h100.json` (from that checkpoint when pretrain ran, with 2 value
# warm-up updates, so the warm-up and the first minibatches' approx-KL are both measured),
# `hydra eval` of the trained checkpoint on the CPU, `hydra check --model` of the behaviour-cloned
# checkpoint. --steps picks some (playouts and bot only when named: by default the time they would
# take goes to train); with pretrain left out, train starts from random weights.
# A failing step is reported and the next one runs. GPU memory and load are sampled each second
# (nvidia-smi) into OUT/results/smi.csv, each step's start and end into OUT/results/steps.csv, and
# at the end each step's mean GPU busy share and peak memory into OUT/results/gpu_busy.txt. Writes
# OUT/log.txt (everything) and OUT/results.tar.gz (the JSON reports, the runs' metrics.jsonl and logs).
set -uo pipefail

hydra=""; mjai=""; houou=""; out=""; deadline=540; pretrain_min=1.5; train_min=3; selfplay_s=0
config=configs/h100.json; device=cuda; blocks=40; channels=256
steps=check,selfplay,learner,model,pretrain,train,eval,check_bc; baseline=""; train_sets=(); check_sets=()
clone=""; playout_s=20; bot_lines=0; playout_sets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --hydra) hydra=$2; shift 2 ;;
    --mjai) mjai=$2; shift 2 ;;
    --houou) houou=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --deadline) deadline=$2; shift 2 ;;
    --pretrain-minutes) pretrain_min=$2; shift 2 ;;
    --train-minutes) train_min=$2; shift 2 ;;
    --selfplay-seconds) selfplay_s=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    # Another hydra (an older build): bench model, learner and selfplay run it too, side by side.
    --baseline) baseline=$2; shift 2 ;;
    # Extra --set KEY=VALUE for the train step (repeatable).
    --train-set) train_sets+=(--set "$2"); shift 2 ;;
    # Extra --set KEY=VALUE for the check step (repeatable).
    --check-set) check_sets+=(--set "$2"); shift 2 ;;
    # The Houou clone (6 x 128): the play-outs' start and a bot of its own.
    --clone) clone=$2; shift 2 ;;
    # Seconds of collects per play-out bench (at least one collect).
    --playout-seconds) playout_s=$2; shift 2 ;;
    # Extra --set KEY=VALUE for the play-out benches (repeatable).
    --playout-set) playout_sets+=(--set "$2"); shift 2 ;;
    # The bot step plays only the first N lines of its game (0: all).
    --bot-lines) bot_lines=$2; shift 2 ;;
    # For a rehearsal on a CPU machine: another config, device and pretraining network.
    --config) config=$2; shift 2 ;;
    --device) device=$2; shift 2 ;;
    --blocks) blocks=$2; shift 2 ;;
    --channels) channels=$2; shift 2 ;;
    *) echo "gpu_run.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
for v in hydra mjai houou out; do
  [ -n "${!v}" ] || { echo "gpu_run.sh: --$v is required" >&2; exit 2; }
done
res=$out/results
runs=$(mktemp -d)
mkdir -p "$res"
exec > >(tee -a "$out/log.txt") 2>&1

# Checkpoints stay behind (a 40 x 256 one with its optimizer state is hundreds of MB).
pack() { tar -czf "$out/results.tar.gz" --exclude='*.ckpt' -C "$out" results -C "$runs" .; }
trap pack EXIT

left() { echo $((deadline - SECONDS)); }
# step NAME LIMIT CMD...: runs CMD under min(LIMIT, time left), its stdout also in NAME.out.
step() {
  local name=$1 limit=$2; shift 2
  local l; l=$(left)
  [ "$limit" -gt "$l" ] && limit=$l
  if [ "$limit" -le 5 ]; then echo "=== $name: skipped, the deadline is reached"; return 1; fi
  echo "=== $name (t=${SECONDS}s, limit ${limit}s): $*"
  local t0=$SECONDS start; start=$(date +%s.%N)
  timeout -k 5 "$limit" "$@" > >(tee "$res/$name.out")
  local rc=$?
  echo "$name,$start,$(date +%s.%N),$rc" >> "$res/steps.csv"
  echo "=== $name: exit $rc in $((SECONDS - t0)) s"
  return $rc
}

nvidia-smi --query-gpu=timestamp,memory.used,memory.total,utilization.gpu,power.draw,clocks.sm \
  --format=csv,noheader -l 1 > "$res/smi.csv" 2>/dev/null &
smi=$!
# Each step's samples of nvidia-smi (its timestamps are local time, as Python reads them): the
# mean GPU utilization and the peak memory over the step.
busy() {
  python3 - "$res/smi.csv" "$res/steps.csv" > "$res/gpu_busy.txt" <<'PY'
import csv, datetime, sys
smi = []
for row in csv.reader(open(sys.argv[1])):
    try:
        t = datetime.datetime.strptime(row[0].strip(), "%Y/%m/%d %H:%M:%S.%f").timestamp()
        smi.append((t, float(row[1].split()[0]), float(row[3].split()[0])))
    except (ValueError, IndexError):
        pass
print(f"{'step':32s} {'samples':>7s} {'GPU busy %':>10s} {'peak MiB':>9s}")
for name, start, end, rc in csv.reader(open(sys.argv[2])):
    s = [x for x in smi if float(start) <= x[0] <= float(end)]
    if s:
        print(f"{name:32s} {len(s):7d} {sum(x[2] for x in s) / len(s):10.1f} {max(x[1] for x in s):9.0f}")
    else:
        print(f"{name:32s} {0:7d} {'-':>10s} {'-':>9s}")
PY
  cat "$res/gpu_busy.txt"
}
trap 'kill $smi 2>/dev/null; busy; pack' EXIT
nvidia-smi; nproc; free -g | head -2
step info 60 "$hydra" info --torch || exit 1

want() { [[ ",$steps," == *",$1,"* ]]; }

want check && step check 120 "$hydra" check --device "$device" --config "$config" --data "$mjai" "${check_sets[@]}"
# Each bench runs once per variant (a name and its --set options), side by side on this machine.
bench() {
  local what=$1 limit=$2 name sets; shift 2
  for variant in "${@}"; do
    name=${variant%%:*}; sets=${variant#*:}
    # shellcheck disable=SC2086  # the sets are words on purpose
    local extra=()
    [ "$what" = learner ] && extra=(--profile "$res/trace_$name.json")
    step "bench_${what}_$name" "$limit" "$hydra" bench "$what" --config "$config" --device "$device" --json \
      ${bench_args[$what]} $sets "${extra[@]}"
    [ -f "$res/trace_$name.json" ] && gzip -f "$res/trace_$name.json"
    [ -n "$baseline" ] && [ "$name" = default ] && step "bench_${what}_baseline" "$limit" "$baseline" bench "$what" \
      --config "$config" --device "$device" --json ${bench_args[$what]}
  done
}
declare -A bench_args=([model]="--seconds 0.5" [learner]="--seconds 5" [selfplay]="--seconds $selfplay_s")
# Self-play at 2,048 games, then the learner as configured and with the fused norm kernels (its
# target is the one furthest off), the forward passes, and self-play's overlapping passes.
want selfplay && bench selfplay 200 "games2048:--set selfplay.games=2048"
want learner && bench learner 75 "default:" "fused_norm:--set model.fused_norm=true" \
  "fused_norm_mb4096:--set model.fused_norm=true --set ppo.minibatch=4096"
want selfplay && bench selfplay 120 "default:" "no_overlap:--set selfplay.overlap=false"
want model && bench model 40 "default:" "fused_norm:--set model.fused_norm=true"

# Behaviour cloning of the full-size network on real games (40 x 256, bf16 with bf16 norms as
# configs/h100.json, batch 1024).
if want pretrain; then
  step pretrain $(awk "BEGIN{print int($pretrain_min * 60 + 90)}") "$hydra" pretrain \
    --config configs/pretrain.json --set model.blocks=$blocks --set model.channels=$channels \
    --set model.cuda_bf16=true --set model.bf16_norm=true --set pretrain.batch=1024 --set train.log_every=20 \
    --set train.checkpoint_every=100000 --set pretrain.val_every=400 --set pretrain.val_max_samples=20000 \
    --data "$houou" --device "$device" --seed 1 --max-minutes "$pretrain_min" --run-dir "$runs/pretrain"
fi
bc=$(ls "$runs"/pretrain/checkpoints/*.ckpt 2>/dev/null | tail -1)

# Network play-outs (docs/PPO.md "Play-outs by the network"): configs/finetune_houou.json with
# its play-outs played by the snapshot on 2 walls, at 6 x 128 from the clone and at the
# pretraining network's size from its checkpoint (else random weights, unsure nearly everywhere:
# nearly every decision played out, so its collects are 4,096 decisions).
if want playouts; then
  po=("$hydra" bench selfplay --config configs/finetune_houou.json --device "$device" --json --seconds "$playout_s"
      --set selfplay.games=256 --set selfplay.play_out_agent=snapshot --set selfplay.play_outs=2)
  big=(--set model.blocks=$blocks --set model.channels=$channels --set ppo.rollout_samples=4096)
  [ "$device" = cuda ] && big+=(--set model.bf16_norm=true --set model.fused_norm=true)
  step playouts_6x128 240 "${po[@]}" ${clone:+--set "ppo.init=$clone"} "${playout_sets[@]}"
  step playouts_${blocks}x$channels 240 "${po[@]}" "${big[@]}" ${bc:+--set "ppo.init=$bc"} "${playout_sets[@]}"
fi

# hydra bot on one real game, seat 0: each reply's wait (the bot's last log lines) for the
# checkpoint, its search under the time budget bot uses, and the same for the clone.
if want bot; then
  game=$(ls "$mjai"/*.json.gz 2>/dev/null | head -1)
  if [ -n "$game" ]; then
    if [ "$bot_lines" -gt 0 ]; then zcat "$game" | head -n "$bot_lines"; else zcat "$game"; fi > "$runs/bot_game.jsonl"
    searched=walls=32:threshold=0.1:candidates=3:time=0.5
    bots=()
    [ -n "$bc" ] && bots+=("pretrained:$bc" "pretrained_search:search:$bc:$searched")
    [ -n "$clone" ] && bots+=("clone:$clone" "clone_search:search:$clone:$searched")
    for b in "${bots[@]}"; do
      # The bot's stderr (its log) is the result; its replies are checked for count only.
      step "bot_${b%%:*}" 150 bash -c '"$1" bot --model "$2" --seat 0 --device "$3" < "$4" 2>&1 > "$5" | grep -v "^\[.*\] \[info\] .*agent: checkpoint"; echo "replies $(wc -l < "$5") to $(grep -c . "$4") lines"' \
        bot "$hydra" "${b#*:}" "$device" "$runs/bot_game.jsonl" "$runs/bot_${b%%:*}.jsonl"
    done
  else
    echo "=== bot: no game in $mjai"
  fi
fi
init=()
[ -n "$bc" ] && init=(--set "ppo.init=$bc" --set ppo.value_warmup=2)

# PPO from that checkpoint, with whatever time is left but what the last two steps need.
reserve=0
want eval && reserve=$((reserve + 60))
want check_bc && reserve=$((reserve + 40))
budget=$(( $(left) - reserve ))
minutes=$(awk "BEGIN{m = $budget / 60 - 1; if (m > $train_min) m = $train_min; print (m > 0.5 ? m : 0.5)}")
want train && step train $(( budget > 60 ? budget : 60 )) "$hydra" train --config "$config" --device "$device" \
  "${init[@]}" "${train_sets[@]}" --seed 1 --max-minutes "$minutes" --run-dir "$runs/train"
ppo=$(ls "$runs"/train/checkpoints/*.ckpt 2>/dev/null | tail -1)

if want eval && [ -n "$ppo" ]; then
  step eval_cpu 90 "$hydra" eval --challenger "$ppo" --champion bot:greedy --seeds 4 --seed 1 --device cpu --json
fi
if want check_bc && [ -n "$bc" ]; then
  step check_bc 60 "$hydra" check --device "$device" --model "$bc" --data "$mjai"
fi
ls -la "$runs"/*/checkpoints 2>/dev/null
echo "=== done at t=${SECONDS}s"
