#!/usr/bin/env bash
# Learning check (not a test): can PPO improve a behaviour-cloned policy? On the CPU with the
# quickstart model (4 x 64):
#   1. greedy self-play logs: `hydra selfplay` with bot:greedy in all four seats (--games);
#   2. BC on them: `hydra pretrain --config configs/pretrain.json` (--bc-steps);
#   3. the GRP rank predictor on the same logs (`hydra grp --config configs/grp.json`), whose
#      per-kyoku change of expected placement points is PPO's reward (selfplay.grp);
#   4. PPO from that BC checkpoint for --minutes (or to update --updates: `--stop-at`, the first N
#      updates of the full run whatever the machine's speed): `hydra train --config configs/finetune.json
#      --set ppo.init=BC --set selfplay.grp=GRP`, exactly what a user runs (its play-outs of every
#      likely action, the KL anchor to the start and the entropy target);
#   5. 1v3 duplicate, --seeds wall seeds each (--sampled-seeds for the sampled ones, default the
#      same), in both modes (argmax, hydra eval's default, and
#      --sample): PPO vs its BC start, PPO vs bot:greedy and BC vs bot:greedy with PPO - BC paired
#      by wall seed (scripts/paired_eval.py), and bot:random vs bot:greedy (no learning at all);
#   6. a learning curve PNG from metrics.jsonl (scripts/plot_learning.py, matplotlib in a pinned
#      venv) and the verdict.
# Learning shows as PPO's average rank against its BC start with its 95% interval entirely below
# 2.5, and PPO - BC against bot:greedy, paired by seed, with its interval entirely below 0. With `-- --set ppo.noise_batch=256` the
# verdict also prints the run's gradient noise scale (scripts/noise_scale.py). The full protocol
# (docs/TRAINING.md) is the defaults: 4000 games, 900 BC steps, 120 minutes of PPO, 1000 seeds.
# The main job (scripts/run.sh) is the short form: 150 BC steps, configs/finetune_short.json (ten
# updates) and one duplicate, PPO against its start in argmax play (--evals start).
# With --houou the start is the Houou clone instead (docs/TRAINING.md "Learning check from the
# Houou clone"): steps 1-3 become BC of the 6 x 128 model on the Houou corpus
# (`hydra pretrain --config configs/pretrain_houou.json`, --bc-steps, default its 15,000) and the
# GRP of that corpus (configs/grp_houou.json); PPO runs configs/finetune_houou.json. --clone CKPT
# and --grp CKPT reuse checkpoints made before (either start) instead of training them.
# A check longer than one sitting runs in parts: `--evals none` stops after PPO (at --minutes),
# and `--resume` with the same options (and `--` flags) continues it in the same --out: the start
# it recorded (OUT/start.env), PPO resumed from its latest checkpoint for --minutes more (`hydra
# train --resume`: the same updates as one uninterrupted run), then the duplicates. A check stopped
# while it trained its start (the Houou clone alone is about two hours of a 2-core machine) continues
# the same way: `--resume` finds OUT/bc without OUT/start.env and resumes the behaviour cloning from
# its latest checkpoint (`hydra pretrain --resume`: the samples the uninterrupted run would have
# trained on next), then goes on to the GRP and PPO. SIGTERM or Ctrl-C stops the hydra command in
# progress the way it stops by itself (it saves its checkpoint first), then the check, with status
# 143 or 130. --eval-seed sets the duplicates' wall seeds (default 20261123, the seeds of every run
# in docs/PPO.md).
#   scripts/learning_check.sh [--build-dir DIR] [--out DIR] [--games N] [--bc-steps N]
#                             [--config FILE] [--minutes M] [--updates N] [--seeds N]
#                             [--sampled-seeds N] [--eval-seed S] [--resume]
#                             [--evals all|start|none] [--houou] [--clone CKPT] [--grp CKPT]
#                             [-- extra hydra train flags]
set -euo pipefail
source "$(dirname "$0")/common.sh"
build_dir=$HYDRA_ROOT/build; out=$HYDRA_ROOT/runs/learning_check
games=4000; bc_steps=; minutes=120; updates=0; seeds=1000; sampled_seeds=; config=; evals=all
houou=0; clone=; grp=; resume=0; eval_seed=20261123
while [ $# -gt 0 ]; do
  case "$1" in
    --houou) houou=1; shift ;;
    --clone) clone=$(realpath "$2"); shift 2 ;;
    --grp) grp=$(realpath "$2"); shift 2 ;;
    --build-dir) build_dir=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --bc-steps) bc_steps=$2; shift 2 ;;
    --minutes) minutes=$2; shift 2 ;;
    --updates) updates=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    --sampled-seeds) sampled_seeds=$2; shift 2 ;;
    --config) config=$2; shift 2 ;;
    --evals) evals=$2; shift 2 ;;
    --eval-seed) eval_seed=$2; shift 2 ;;
    --resume) resume=1; shift ;;
    --) shift; break ;;
    *) echo "learning_check.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
case "$evals" in all|start|none) ;; *) echo "learning_check.sh: --evals is all, start or none, not '$evals'" >&2; exit 2 ;; esac
[[ $eval_seed =~ ^[0-9]+$ ]] || { echo "learning_check.sh: --eval-seed is a non-negative integer, not '$eval_seed'" >&2; exit 2; }
# What --resume continues: PPO from the start recorded in OUT/start.env, or (stopped before PPO,
# while its start trained or right after) the behaviour cloning in OUT/bc.
resume_from=
if [ "$resume" = 1 ]; then
  [ -z "$clone$grp" ] || { echo "learning_check.sh: --resume takes the start recorded in $out/start.env; drop --clone and --grp" >&2; exit 2; }
  if [ -f "$out/start.env" ]; then
    resume_from=start
  elif [ -f "$out/bc/checkpoints/latest" ]; then
    resume_from=bc
  else
    echo "learning_check.sh: --resume: neither $out/start.env nor a checkpoint in $out/bc: no check to continue in $out (run it without --resume first)" >&2; exit 2
  fi
fi
if [ "$houou" = 1 ]; then
  : "${bc_steps:=15000}" "${config:=configs/finetune_houou.json}"
else
  : "${bc_steps:=900}" "${config:=configs/finetune.json}"
fi
for f in "$clone" "$grp"; do
  [ -z "$f" ] || [ -f "$f" ] || { echo "learning_check.sh: $f: no such checkpoint" >&2; exit 2; }
  case "$f" in "$(realpath -m "$out")"/*)
    echo "learning_check.sh: $f lies in --out $out, which the check empties first: copy it elsewhere" >&2; exit 2 ;;
  esac
done
hydra=$build_dir/apps/hydra
[ -x "$hydra" ] || { echo "learning_check.sh: $hydra is missing: build first (scripts/build.sh)" >&2; exit 1; }
[ "$resume" = 1 ] || rm -rf "$out"
mkdir -p "$out"
cd "$HYDRA_ROOT"
start=$(date +%s)

# step COMMAND...: runs one hydra command (its output redirected by the caller) in a session of its
# own, so that Ctrl-C or a SIGTERM of this script reaches it once, as SIGTERM: hydra then saves and
# stops as on its own signal (a second signal would kill it in the middle of its checkpoint,
# common/stop.cpp), and the check ends.
exec 3>&1  # step's own message goes to the check's output, not the command's log
child=0; interrupted=0
forward() { [ "$child" -gt 0 ] && kill -TERM "$child" 2>/dev/null; :; }
trap 'interrupted=143; forward' TERM
trap 'interrupted=130; forward' INT
step() {
  local rc
  setsid "$@" & child=$!
  # A trapped signal ends `wait` early: wait again until the command has ended.
  until wait "$child"; rc=$?; ! kill -0 "$child" 2>/dev/null; do :; done
  child=0
  if [ "$interrupted" -gt 0 ]; then
    say "stopped by a signal while '$2' ran (its checkpoints are kept): continue with the same options and --resume" >&3
    exit "$interrupted"
  fi
  return "$rc"
}

if [ "$resume_from" = start ]; then
  bc=$(sed -n 's/^bc=//p' "$out/start.env"); grp=$(sed -n 's/^grp=//p' "$out/start.env")
  for f in "$bc" "$grp"; do
    [ -f "$f" ] || { echo "learning_check.sh: --resume: $out/start.env names $f, which is missing" >&2; exit 2; }
  done
  say "1-3/6 the start recorded in $out/start.env: $bc, GRP $grp"
elif [ -n "$clone" ]; then
  say "1-2/6 the start: $clone (given)"
  bc=$clone
else
  bc_resume=(); [ "$resume_from" = bc ] && bc_resume=(--resume)
  if [ "$houou" = 1 ]; then
    bc_config=configs/pretrain_houou.json; bc_data=()
    say "1-2/6 behaviour cloning on the Houou corpus: $bc_steps steps of $bc_config -> $out/bc${bc_resume:+, resumed}"
  else
    bc_config=configs/pretrain.json; bc_data=(--data "$out/greedy/logs")
    if [ "$resume_from" != bc ]; then
      say "1/6 greedy self-play: $games games of bot:greedy x 4 -> $out/greedy"
      step "$hydra" selfplay --agents bot:greedy,bot:greedy,bot:greedy,bot:greedy --games "$games" --seed 1 \
        --out "$out/greedy" > "$out/selfplay.log" 2>&1
    fi
    say "2/6 behaviour cloning: $bc_steps steps on those logs -> $out/bc${bc_resume:+, resumed}"
  fi
  step "$hydra" pretrain --config "$bc_config" "${bc_data[@]}" --max-steps "$bc_steps" --run-dir "$out/bc" --device cpu \
    "${bc_resume[@]}" >> "$out/bc.log" 2>&1
  # The clone's latest, not its best: best is chosen by a total loss its value head inflates
  # (docs/PRETRAIN.md "Behaviour cloning on the Houou corpus").
  bc=$out/bc/checkpoints/$(cat "$out/bc/checkpoints/latest")
  tail -n 3 "$out/bc.log"
fi

if [ "$resume_from" = start ]; then
  :  # the GRP recorded in start.env, read with the start above
elif [ -n "$grp" ]; then
  say "3/6 the GRP rank predictor: $grp (given)"
else
  if [ "$houou" = 1 ]; then
    grp_config=configs/grp_houou.json; grp_data=()
    say "3/6 GRP rank predictor on the Houou corpus ($grp_config) -> $out/grp"
  else
    grp_config=configs/grp.json; grp_data=(--data "$out/greedy/logs")
    say "3/6 GRP rank predictor on the same logs -> $out/grp"
  fi
  rm -rf "$out/grp"  # a GRP stopped part way (--resume) trains again: a minute
  step "$hydra" grp --config "$grp_config" "${grp_data[@]}" --run-dir "$out/grp" --device cpu > "$out/grp.log" 2>&1
  grp=$out/grp/checkpoints/$(cat "$out/grp/checkpoints/best")
  tail -n 2 "$out/grp.log"
fi

stop=(); bound="at most $minutes minutes"
[ "$minutes" = 0 ] && bound="train.max_updates of $config"
if [ "$updates" -gt 0 ]; then
  stop=(--stop-at "$updates"); bound="$updates updates"
  [ "$minutes" != 0 ] && bound="$bound (at most $minutes minutes)"
fi
printf 'bc=%s\ngrp=%s\n' "$bc" "$grp" > "$out/start.env"
resume_flag=(); [ "$resume_from" = start ] && resume_flag=(--resume)
say "4/6 PPO from $bc for $bound${resume_flag:+ more, resumed} -> $out/ppo"
step "$hydra" train --config "$config" --run-dir "$out/ppo" --device cpu "${resume_flag[@]}" \
  --set ppo.init="$bc" --set selfplay.grp="$grp" --max-minutes "$minutes" "${stop[@]}" "$@" >> "$out/ppo.log" 2>&1
ppo=$out/ppo/checkpoints/$(cat "$out/ppo/checkpoints/latest")
grep "train: " "$out/ppo.log" | grep -v "checkpoint " | tail -n 5
if [ "$evals" = none ]; then
  say "stopped after PPO (--evals none): continue with the same options and --resume"
  exit 0
fi

if [ "$evals" = start ]; then
  say "5/6 1v3 duplicate over $seeds wall seeds: PPO against its BC start, argmax (hydra eval's default)"
else
  say "5/6 1v3 duplicate evaluations over $seeds wall seeds, argmax (hydra eval's default), and sampled over ${sampled_seeds:-$seeds}"
fi
evaluate() {  # NAME CHALLENGER CHAMPION [eval flags]
  local name=$1 challenger=$2 champion=$3; shift 3
  local n=$seeds; [[ $name == *_sampled ]] && n=${sampled_seeds:-$seeds}
  # The journal keeps each finished seed: a duplicate stopped part way and run again (--resume) plays
  # only the rest. One journal per pair of agents: a resumed PPO has a new checkpoint, so a new file.
  local key; key=$(printf '%s\n' "$challenger" "$champion" "$eval_seed" "$@" | sha256sum | cut -c1-12)
  step "$hydra" eval --challenger "$challenger" --champion "$champion" --seeds "$n" --seed "$eval_seed" --device cpu \
    --json --journal "$out/eval_$name.$key.jsonl" "$@" > "$out/eval_$name.json" 2> "$out/eval_$name.log"
  python3 - "$out/eval_$name.json" "$name" << 'PY'
import json, sys
j = json.load(open(sys.argv[1]))
r = j["challenger_stats"]["avg_rank"]
lo, hi = r["ci95"]
print(f"{sys.argv[2]:<26} avg rank {r['value']:.3f}  95% CI [{lo:.3f}, {hi:.3f}]  ({j['games']} games)")
PY
}
modes=(argmax sampled); [ "$evals" = start ] && modes=(argmax)
for mode in "${modes[@]}"; do
  flags=(); [ "$mode" = sampled ] && flags=(--sample)
  evaluate "ppo_vs_bc_$mode" "$ppo" "$bc" "${flags[@]}"
  [ "$evals" = start ] && continue
  evaluate "ppo_vs_greedy_$mode" "$ppo" bot:greedy "${flags[@]}"
  evaluate "bc_vs_greedy_$mode" "$bc" bot:greedy "${flags[@]}"
  python3 scripts/paired_eval.py "$out/eval_ppo_vs_greedy_$mode.json" "$out/eval_bc_vs_greedy_$mode.json" \
    --label "PPO - BC vs bot:greedy ($mode)" --json > "$out/paired_$mode.json"
  python3 scripts/paired_eval.py "$out/eval_ppo_vs_greedy_$mode.json" "$out/eval_bc_vs_greedy_$mode.json" \
    --label "PPO - BC vs bot:greedy ($mode)"
done
[ "$evals" = all ] && evaluate random_vs_greedy bot:random bot:greedy

say "6/6 learning curve -> $out/learning_curve.png"
python3 scripts/plot_learning.py "$out/ppo/metrics.jsonl" "$out/learning_curve.png" || \
  echo "learning_check.sh: the plot failed (matplotlib venv); the numbers above stand" >&2
if grep -q '"ppo/grad_noise"' "$out/ppo/metrics.jsonl"; then
  python3 scripts/noise_scale.py "$out/ppo/metrics.jsonl"
fi
python3 - "$out" "$(( $(date +%s) - start ))" "$evals" << 'PY'
import json, sys
out, secs, evals = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rank = lambda n: json.load(open(f"{out}/eval_{n}.json"))["challenger_stats"]["avg_rank"]
recs = [json.loads(l) for l in open(f"{out}/ppo/metrics.jsonl") if l.strip()]
samples = sum(r.get("ppo/samples", 0) for r in recs)
print(f"PPO: {len(recs)} updates, {int(samples)} learner samples; whole check {secs // 60} min {secs % 60} s")
if evals == "start":
    r = rank("ppo_vs_bc_argmax")
    lo, hi = r["ci95"]
    print(f"PPO vs its BC start, argmax play: average rank {r['value']:.3f} [{lo:.3f}, {hi:.3f}] (2.5 is par; "
          f"learning shows as the whole interval below 2.5)")
    print(("LEARNED: PPO is ahead of its start" if hi < 2.5 else "NOT SHOWN: the interval reaches 2.5")
          + " in argmax play (hydra eval's default)")
    sys.exit(0)
print(f"against bot:greedy (2.5 is par): no learning (bot:random) {rank('random_vs_greedy')['value']:.3f}")
verdict = {}
for mode in ("argmax", "sampled"):
    vs_bc, ppo_g, bc_g = rank(f"ppo_vs_bc_{mode}"), rank(f"ppo_vs_greedy_{mode}"), rank(f"bc_vs_greedy_{mode}")
    paired = json.load(open(f"{out}/paired_{mode}.json"))
    lo, hi = paired["ci95"]
    verdict[mode] = vs_bc["ci95"][1] < 2.5 and hi < 0
    print(f"{mode:>7}: PPO vs its BC start {vs_bc['value']:.3f} [{vs_bc['ci95'][0]:.3f}, {vs_bc['ci95'][1]:.3f}] "
          f"(needs the interval below 2.5); vs bot:greedy PPO {ppo_g['value']:.3f}, BC {bc_g['value']:.3f}, "
          f"PPO - BC paired {paired['difference']:+.3f} [{lo:+.3f}, {hi:+.3f}] (needs it below 0)")
# hydra eval, bot and review play the argmax unless --sample: that is the verdict's mode.
print(("LEARNED" if verdict["argmax"] else "NOT SHOWN") + " in argmax play (hydra eval's default); "
      + ("learned" if verdict["sampled"] else "not shown") + " in sampled play")
PY
