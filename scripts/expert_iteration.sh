#!/usr/bin/env bash
# Expert iteration from the Houou clone (docs/PPO.md "Distilling the search"): self-play by the
# search over the clone, then the clone fine-tuned on those games with its own policy as the
# target wherever the search kept its choice, then the duplicates of the learning check.
#   1. `hydra selfplay` with search:CLONE in all four seats (the settings `hydra bot` uses, without
#      its time budget, so the games are a function of the seed: docs/EVAL.md): one batch of
#      --games games for each seed of --game-seeds, each batch in OUT/search-SEED (each searched
#      action's line carries the candidates' values: -- --set pretrain.search_temperature=T uses them);
#   2. `hydra pretrain --config configs/distill_houou.json --init CLONE --set pretrain.teacher=CLONE`
#      on every batch's logs (--steps, default the config's): where a logged action is the clone's
#      argmax the target is the clone's policy, where the search changed it the search's choice;
#   3. 1v3 duplicates over --seeds wall seeds (--eval-seed), argmax play (hydra eval's default):
#      the distilled network against the clone, then both against bot:greedy, paired by seed
#      (scripts/paired_eval.py); sampled play against the clone over --sampled-seeds.
# More rounds of the loop: --game-seeds with groups separated by '/' (20261207,20261208/20261210,20261211)
# runs one round per group; round R >= 2 (in OUT/round-R) plays the search over round R-1's
# distilled network and fine-tunes that network on its games with itself as the teacher
# (--keep-games: on every round's games so far). Stage 3 plays the last round's network.
# It shows the search's gain kept by the network as the distilled network's average rank against
# the clone with its 95% interval below 2.5 (the bar of the self-improvement work: below 2.48).
# The clone and GRP come from `scripts/learning_check.sh --houou --evals none` or `hydra pretrain
# --config configs/pretrain_houou.json` and `hydra grp --config configs/grp_houou.json`.
# Every stage is seeded; a stage (or a batch of games) whose output is complete is not run again
# (run it again with the same options to continue after a stop; the duplicates keep a journal of
# finished seeds).
#   scripts/expert_iteration.sh --clone CKPT --grp CKPT [--out DIR] [--games N] [--game-seeds S,S.../S,S...]
#                               [--keep-games] [--steps N] [--seeds N] [--sampled-seeds N] [--eval-seed S]
#                               [--search OPTIONS] [--build-dir DIR] [-- extra hydra pretrain flags]
set -euo pipefail
source "$(dirname "$0")/common.sh"
build_dir=$HYDRA_ROOT/build; out=$HYDRA_ROOT/runs/expert_iteration
clone=; grp=; games=160; keep_games=0; game_seeds=20261207,20261208; steps=; seeds=1000; sampled_seeds=100; eval_seed=20261206
search=continuation=greedy:walls=32:more=96:stages=3:threshold=0.1:candidates=3:calls=0:sigmas=1.5
usage() { sed -n '/^#   scripts/,/^set -euo/p' "$0" | sed '$d' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --clone) clone=$(realpath "$2"); shift 2 ;;
    --grp) grp=$(realpath "$2"); shift 2 ;;
    --out) out=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --game-seeds) game_seeds=$2; shift 2 ;;
    --keep-games) keep_games=1; shift ;;
    --steps) steps=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    --sampled-seeds) sampled_seeds=$2; shift 2 ;;
    --eval-seed) eval_seed=$2; shift 2 ;;
    --search) search=$2; shift 2 ;;
    --build-dir) build_dir=$2; shift 2 ;;
    -h|--help) usage ;;
    --) shift; break ;;
    *) echo "expert_iteration.sh: unknown option '$1'" >&2; usage ;;
  esac
done
for f in "$clone" "$grp"; do
  [ -n "$f" ] && [ -f "$f" ] || { echo "expert_iteration.sh: --clone and --grp need existing checkpoints" >&2; usage; }
done
# The pairing against bot:greedy needs an interval, so at least two seeds (checked before hours of play).
[[ "$seeds" =~ ^[0-9]+$ ]] && [ "$seeds" -ge 2 ] || { echo "expert_iteration.sh: --seeds must be a whole number >= 2 (the paired interval needs two seeds), not '$seeds'" >&2; exit 2; }
[[ "$sampled_seeds" =~ ^[0-9]+$ ]] || { echo "expert_iteration.sh: --sampled-seeds must be a whole number, not '$sampled_seeds'" >&2; exit 2; }
hydra=$build_dir/apps/hydra
[ -x "$hydra" ] || { echo "expert_iteration.sh: $hydra missing: build first (scripts/build.sh)" >&2; exit 1; }
mkdir -p "$out"
start=$(date +%s)
# step LOG COMMAND...: runs the command with its stderr (and, unless LOG is -, its stdout too)
# appended to LOG; on failure the log's last lines and its path.
step() {
  local log=$1; shift
  if "$@" 2>> "$log"; then return 0; fi
  echo "expert_iteration.sh: failed: $1 ${2:-} (the last lines of $log:)" >&2
  tail -n 5 "$log" >&2
  exit 1
}

IFS=/ read -r -a rounds <<< "$game_seeds"
teacher=$clone  # the network the round searches over, starts from and learns from
logs=()         # the games the round's fine-tuning reads
for r in "${!rounds[@]}"; do
  round=$((r + 1)); dir_r=$out; [ "$round" -gt 1 ] && dir_r=$out/round-$round
  of="${#rounds[@]}"; tag="round $round of $of: "; [ "$of" -eq 1 ] && tag=
  mkdir -p "$dir_r"
  agent="search:$teacher:$search:grp=$grp"
  [ "$keep_games" = 1 ] || logs=()
  IFS=, read -r -a batch_seeds <<< "${rounds[$r]}"
  for seed in "${batch_seeds[@]}"; do
    dir=$dir_r/search-$seed
    logs+=("$dir/logs")
    if [ -f "$dir/done" ]; then
      say "1/3 ${tag}the search's games, seed $seed: $dir (done before)"
      continue
    fi
    say "1/3 ${tag}self-play of the search over $teacher: $games games, seed $seed -> $dir"
    rm -rf "$dir"
    : > "$dir.log"
    step "$dir.log" "$hydra" selfplay --agents "$agent,$agent,$agent,$agent" --games "$games" --seed "$seed" \
      --out "$dir" >> "$dir.log"
    touch "$dir/done"
    tail -n 1 "$dir.log"
  done

  if [ -f "$dir_r/distill/done" ]; then
    say "2/3 ${tag}fine-tuned on them: $dir_r/distill (done before)"
  else
    say "2/3 ${tag}$teacher fine-tuned on the search's games (configs/distill_houou.json, itself as teacher) -> $dir_r/distill"
    resume=(); [ -d "$dir_r/distill/checkpoints" ] && resume=(--resume)
    step "$dir_r/distill.log" "$hydra" pretrain --config configs/distill_houou.json --init "$teacher" \
      --set pretrain.teacher="$teacher" --data "${logs[@]}" --run-dir "$dir_r/distill" --device cpu \
      ${steps:+--max-steps "$steps"} "${resume[@]}" "$@" >> "$dir_r/distill.log"
    touch "$dir_r/distill/done"
  fi
  { grep "against the teacher" "$dir_r/distill.log" || true; } | tail -n 1
  # The search's estimate of the gain on the held-out games (docs/PRETRAIN.md "The search's regret").
  { grep "a searched decision over the teacher" "$dir_r/distill.log" || true; } | tail -n 1
  tail -n 2 "$dir_r/distill.log"
  teacher=$dir_r/distill/checkpoints/$(cat "$dir_r/distill/checkpoints/latest")
done
distilled=$teacher

say "3/3 1v3 duplicates over $seeds wall seeds (--seed $eval_seed), argmax; sampled over $sampled_seeds"
evaluate() {  # NAME CHALLENGER CHAMPION SEEDS [eval flags]
  local name=$1 challenger=$2 champion=$3 n=$4; shift 4
  local key; key=$(printf '%s\n' "$challenger" "$champion" "$eval_seed" "$n" "$@" | sha256sum | cut -c1-12)
  : > "$out/eval_$name.log"
  step "$out/eval_$name.log" "$hydra" eval --challenger "$challenger" --champion "$champion" --seeds "$n" \
    --seed "$eval_seed" --device cpu --json --journal "$out/eval_$name.$key.jsonl" "$@" > "$out/eval_$name.json"
}
evaluate distilled_vs_clone "$distilled" "$clone" "$seeds"
evaluate distilled_vs_greedy "$distilled" bot:greedy "$seeds"
evaluate clone_vs_greedy "$clone" bot:greedy "$seeds"
python3 scripts/paired_eval.py "$out/eval_distilled_vs_greedy.json" "$out/eval_clone_vs_greedy.json" \
  --label "distilled - clone vs bot:greedy (argmax)" --json > "$out/paired.json"
[ "$sampled_seeds" -gt 0 ] && evaluate distilled_vs_clone_sampled "$distilled" "$clone" "$sampled_seeds" --sample

python3 - "$out" "$(( $(date +%s) - start ))" "$sampled_seeds" << 'PY'
import json, sys
out, secs, sampled = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def rank(name):
    r = json.load(open(f"{out}/eval_{name}.json"))["challenger_stats"]["avg_rank"]
    return r["value"], r["ci95"][0], r["ci95"][1]
v, lo, hi = rank("distilled_vs_clone")
print(f"distilled vs the clone, argmax: average rank {v:.3f} [{lo:.3f}, {hi:.3f}] (2.5 is par; the bar: below 2.48)")
p = json.load(open(f"{out}/paired.json"))
print(f"against bot:greedy: distilled {rank('distilled_vs_greedy')[0]:.3f}, clone {rank('clone_vs_greedy')[0]:.3f}, "
      f"distilled - clone paired {p['difference']:+.3f} [{p['ci95'][0]:+.3f}, {p['ci95'][1]:+.3f}]")
if sampled > 0:
    s = rank("distilled_vs_clone_sampled")
    ci = f"[{s[1]:.3f}, {s[2]:.3f}]" if s[1] is not None else "(no interval from one seed)"
    print(f"distilled vs the clone, sampled: {s[0]:.3f} {ci}")
print(f"whole run of this script {secs // 60} min {secs % 60} s")
print(("STRONGER: the distilled network beats the clone" if hi < 2.5 else "NOT SHOWN: the interval reaches 2.5")
      + " in argmax play (hydra eval's default)")
PY
