#!/usr/bin/env bash
# pretrain_run.sh HYDRA: a short behaviour-cloning run on four real games end to end - per-type
# validation with the discard baseline in report.json and metrics.jsonl, latest/best checkpoints,
# --resume continuing the step count, --eval-only on a log with the greedy bot's agreement, a
# run directory that refuses to be overwritten, a GRP run whose checkpoint is of kind grp, a GRP
# run that never beats its untrained network (best checkpoint, report and warning), and
# one `hydra train` update started from the BC checkpoint (ppo.init) with the GRP rewards, and a
# fine-tuning run started from it (--init), compared with its start (--eval-only --against), and
# one with it as its teacher (pretrain.teacher).
# Skips (exit 77) without HYDRA_TESTDATA.
set -u
hydra=$1
[ -n "${HYDRA_TESTDATA:-}" ] && [ -d "$HYDRA_TESTDATA/mjai" ] || { echo "HYDRA_TESTDATA not set: skipped"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/logs"
cp $(ls "$HYDRA_TESTDATA"/mjai/*.json.gz | head -n 4) "$dir/logs/"
fail() { echo "pretrain_run.sh: $*" >&2; exit 1; }
small=(--set model.blocks=1 --set model.channels=32 --set pretrain.batch=32 --set pretrain.val_fraction=0.5
       --set pretrain.val_every=2 --set train.checkpoint_every=2 --set pretrain.val_max_samples=300
       --set pretrain.shuffle_buffer=256 --set train.tensorboard=false --seed 3)

out=$("$hydra" pretrain --data "$dir/logs" --run-dir "$dir/run" --max-steps 4 "${small[@]}" 2>&1); rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 0 ] || fail "exit code $rc"
printf '%s\n' "$out" | grep -Eq "discards: model [0-9.]+, majority-class baseline [0-9.]+" || fail "no discard line"
printf '%s\n' "$out" | grep -Eq "greedy bot agrees with [0-9.]+ of [1-9][0-9]* held-out human discards" || fail "no greedy line"
grep -q '"discard_baseline": [0-9.]' "$dir/run/report.json" || fail "report.json has no discard baseline"
grep -q '"val/acc/discard"' "$dir/run/metrics.jsonl" || fail "metrics.jsonl has no validation accuracy"
[ -s "$dir/run/checkpoints/latest" ] && [ -s "$dir/run/checkpoints/best" ] || fail "no latest/best pointers"
grep -q '"seed": 3' "$dir/run/config.json" || fail "config.json lacks the seed"

out=$("$hydra" pretrain --data "$dir/logs" --run-dir "$dir/run" --max-steps 4 "${small[@]}" 2>&1); rc=$?
[ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q "already holds checkpoints: pass --resume" || fail "an old run dir was reused"

out=$("$hydra" pretrain --data "$dir/logs" --run-dir "$dir/run" --max-steps 6 --resume "${small[@]}" 2>&1); rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 0 ] || fail "resume exit code $rc"
printf '%s\n' "$out" | grep -q "resuming from .*step-000000000004.ckpt at step 4" || fail "did not resume at step 4"
printf '%s\n' "$out" | grep -q "pretrain: step 6, checkpoint" || fail "resume did not reach step 6"
[ "$(grep -c '"step": *4[,}]' "$dir/run/metrics.jsonl")" -ge 1 ] || fail "metrics lost step 4"

one=$(ls "$dir/logs"/*.json.gz | head -n 1)
json=$("$hydra" pretrain --eval-only --model "$dir/run/checkpoints/$(cat "$dir/run/checkpoints/latest")" --data "$one" --json); rc=$?
printf '%s\n' "$json"
[ "$rc" -eq 0 ] || fail "eval-only exit code $rc"
printf '%s\n' "$json" | grep -Eq '"samples": [1-9]' || fail "eval-only saw no samples"
printf '%s\n' "$json" | grep -Eq '"agreement": 0\.[0-9]+' || fail "eval-only has no greedy agreement"

out=$("$hydra" grp --data "$dir/logs" --run-dir "$dir/grp" --max-steps 4 --seed 3 --set pretrain.val_fraction=0.5 \
  --set pretrain.val_every=2 --set train.tensorboard=false 2>&1); rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 0 ] || fail "grp exit code $rc"
printf '%s\n' "$out" | grep -Eq "cross-entropy [0-9.]+ \(uniform 3.1781" || fail "grp reported no cross-entropy against log(24)"
"$hydra" export "$dir/grp/checkpoints" --out "$dir/grp.pt" | grep -q "exported grp step 4" || fail "the GRP checkpoint is not of kind grp"
# A GRP that cannot learn (learning rate 0) never beats the untrained network: it still has a
# `best` checkpoint (the first validated step), the report names the untrained cross-entropy,
# equal to the best (the weights never moved), and the run ends with a warning.
out=$("$hydra" grp --data "$dir/logs" --run-dir "$dir/grp0" --max-steps 2 --seed 3 --set pretrain.val_fraction=0.5 \
  --set pretrain.val_every=1 --set pretrain.lr=0 --set pretrain.lr_floor=0 --set train.tensorboard=false 2>&1); rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 0 ] || fail "grp (lr 0) exit code $rc"
[ -s "$dir/grp0/checkpoints/best" ] || fail "a GRP run that never beat the untrained network has no best checkpoint"
printf '%s\n' "$out" | grep -q "no better than the untrained network's" || fail "no warning about the untrained network"
python3 - "$dir/grp0/report.json" <<'PY' || fail "report.json: untrained_cross_entropy"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["untrained_cross_entropy"] == r["validation"]["cross_entropy"], (r["untrained_cross_entropy"], r["validation"])
PY
bc="$dir/run/checkpoints/$(cat "$dir/run/checkpoints/latest")"
grp="$dir/grp/checkpoints/$(cat "$dir/grp/checkpoints/latest")"
out=$("$hydra" train --run-dir "$dir/train" --max-updates 1 --device cpu --seed 3 --set model.blocks=1 --set model.channels=32 \
  --set ppo.init="$bc" --set selfplay.grp="$grp" --set selfplay.games=2 --set ppo.rollout_samples=32 --set ppo.minibatch=32 \
  --set train.tensorboard=false 2>&1); rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 0 ] || fail "hydra train from the BC checkpoint: exit code $rc"
printf '%s\n' "$out" | grep -q "initial weights from .*step-000000000006.ckpt" || fail "hydra train did not start from the BC checkpoint"
# A GRP checkpoint as ppo.init is refused by its kind, not as a different architecture.
out=$("$hydra" train --run-dir "$dir/train_grp" --max-updates 1 --device cpu --seed 3 --set model.blocks=1 --set model.channels=32 \
  --set ppo.init="$grp" --set selfplay.games=2 --set ppo.rollout_samples=32 --set ppo.minibatch=32 --set train.tensorboard=false 2>&1); rc=$?
[ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q "ppo.init: checkpoint .* holds a 'grp' network, not a hydra_net" || fail "a GRP checkpoint was taken as ppo.init: $out"
# Fine-tuning (--init): at learning rate 0 the fine-tuned network is the one it started from, so
# --eval-only gives it the same numbers on the same log; a GRP checkpoint is refused by name.
out=$("$hydra" pretrain --data "$dir/logs" --run-dir "$dir/tuned" --max-steps 2 --init "$bc" "${small[@]}" \
  --set pretrain.lr=0 --set pretrain.lr_floor=0 2>&1); rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 0 ] || fail "pretrain --init: exit code $rc"
printf '%s\n' "$out" | grep -q "initial weights from .*step-000000000006.ckpt" || fail "pretrain --init did not name its start"
tuned="$dir/tuned/checkpoints/$(cat "$dir/tuned/checkpoints/latest")"
"$hydra" pretrain --eval-only --model "$bc" --data "$one" --json --no-greedy > "$dir/bc.json" || fail "eval-only of the start"
"$hydra" pretrain --eval-only --model "$tuned" --data "$one" --json --no-greedy > "$dir/tuned.json" || fail "eval-only of the fine-tuned"
python3 - "$dir/bc.json" "$dir/tuned.json" <<'PY' || fail "the network fine-tuned at learning rate 0 is not its start"
import json, sys
def numbers(x, path=""):
    if isinstance(x, dict):
        for k, v in x.items(): yield from numbers(v, path + "/" + k)
    elif isinstance(x, list):
        for i, v in enumerate(x): yield from numbers(v, f"{path}/{i}")
    elif isinstance(x, (int, float)) and not isinstance(x, bool):
        yield path, x
# Every number but the checkpoint's step and the evaluation's wall time.
a, b = ({k: v for k, v in numbers(json.load(open(f))) if k != "/step" and not k.endswith("seconds")} for f in sys.argv[1:])
assert a and a == b, [(k, a.get(k), b.get(k)) for k in set(a) | set(b) if a.get(k) != b.get(k)][:5]
PY
# --against: the fine-tuned network compared with its start on the same decisions matches every
# choice of the start's that the log keeps and none that it corrects; only with --eval-only.
"$hydra" pretrain --eval-only --model "$tuned" --against "$bc" --data "$one" --json --no-greedy > "$dir/against.json" \
  || fail "eval-only --against"
python3 - "$dir/against.json" <<'PY' || fail "--against: not the start's choices"
import json, sys
j = json.load(open(sys.argv[1]))
t = j["validation"]["teacher"]
assert j["against"].endswith(".ckpt") and t["kept"] > 0 and t["kept_matched"] == 1.0 and t["corrected_matched"] == 0.0, j
PY
out=$("$hydra" pretrain --data "$dir/logs" --run-dir "$dir/against" --against "$bc" 2>&1); rc=$?
[ "$rc" -eq 1 ] && printf '%s
' "$out" | grep -q "pretrain --against compares networks in --eval-only" || fail "--against without --eval-only: $out"
out=$("$hydra" pretrain --data "$dir/logs" --run-dir "$dir/tuned_grp" --max-steps 2 --init "$grp" "${small[@]}" 2>&1); rc=$?
[ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q "holds a 'grp' network, not a hydra_net" || fail "a GRP checkpoint was taken as --init: $out"
# A teacher (pretrain.teacher) that is the network itself at learning rate 0: on the held-out games
# it matches every choice of the teacher's that the log keeps and none that the log corrects.
out=$("$hydra" pretrain --data "$dir/logs" --run-dir "$dir/taught" --max-steps 2 --init "$bc" "${small[@]}" \
  --set pretrain.lr=0 --set pretrain.lr_floor=0 --set pretrain.teacher="$bc" --set pretrain.augment=false 2>&1); rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 0 ] || fail "pretrain with a teacher: exit code $rc"
line=$(printf '%s\n' "$out" | grep "against the teacher" | tail -n 1)
[[ "$line" =~ matches\ ([0-9]+)\ of\ ([0-9]+)\ decisions.*,\ ([0-9]+)\ of\ ([1-9][0-9]*)\ where ]] || fail "no teacher split: $line"
[ "${BASH_REMATCH[1]}" -eq "${BASH_REMATCH[2]}" ] && [ "${BASH_REMATCH[3]}" -eq 0 ] || fail "the teacher's own network is not the teacher: $line"
grep -q '"train/corrected"' "$dir/taught/metrics.jsonl" || fail "metrics.jsonl has no train/corrected"
out=$("$hydra" pretrain --data "$dir/logs" --run-dir "$dir/taught_grp" --max-steps 2 "${small[@]}" \
  --set pretrain.teacher="$grp" 2>&1); rc=$?
[ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q "pretrain.teacher: checkpoint .* holds a 'grp' network" || fail "a GRP checkpoint was taken as the teacher: $out"
# Every file held out: a clear error naming the setting, before any training.
out=$("$hydra" pretrain --data "$dir/logs" --run-dir "$dir/all_held_out" --max-steps 2 "${small[@]}" \
  --set pretrain.val_fraction=1 2>&1); rc=$?
[ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q "no training file: pretrain.val_fraction = 1 holds out every file" || fail "every file held out: $out"
echo "pretrain_run.sh: train, resume, eval-only, grp, fine-tuning, a teacher and a PPO start from both checkpoints as expected"
