#!/usr/bin/env bash
# pretrain_ranks.sh HYDRA [TORCHRUN]: behaviour cloning as data-parallel ranks on this machine
# (docs/DISTRIBUTED.md), two CPU ranks over Gloo, on six real games.
#   1. `--nproc 2`: both ranks exit 0, rank 0 alone writes metrics, checkpoints and report.json;
#      the report's shards of one pass cover the training split, each file in one shard.
#   2. That 2-rank checkpoint resumes with 1 rank, and a 1-rank checkpoint with 2 ranks.
#   3. The same two ranks started by `torchrun --no-python` (the pinned torch venv's).
# Which files a shard reads in each pass, and that the ranks' step is one learner's step on the
# union of their batches, are the GoogleTests Dataset.ShardsReadEachFileExactlyOncePerEpoch and
# Bc.TwoRanksStepAsOneLearnerOnTheUnionOfTheirBatches. Skips (exit 77) without HYDRA_TESTDATA.
set -u
hydra=$1
torchrun=${2:-}
[ -n "${HYDRA_TESTDATA:-}" ] && [ -d "$HYDRA_TESTDATA/mjai" ] || { echo "HYDRA_TESTDATA not set: skipped"; exit 77; }
source "$(dirname "$0")/scratch.sh"
mkdir "$dir/logs"
cp $(ls "$HYDRA_TESTDATA"/mjai/*.json.gz | head -n 6) "$dir/logs/"
small=(--data "$dir/logs" --device cpu --set run.threads=1 --set model.blocks=1 --set model.channels=32
       --set pretrain.batch=33 --set pretrain.val_fraction=0.3 --set pretrain.val_every=2 --set train.checkpoint_every=2
       --set pretrain.val_max_samples=200 --set pretrain.shuffle_buffer=256 --set train.tensorboard=false
       --set run.dist_timeout=60 --set train.log_every=1 --seed 3)

# 1. Two local ranks.
"$hydra" pretrain "${small[@]}" --max-steps 4 --nproc 2 --run-dir "$dir/two" > "$dir/two.out" 2>&1 || fail "--nproc 2 failed"
grep -q "starting 2 local ranks" "$dir/two.out" || fail "no launcher line"
grep -q "batch 33, 4 steps, seed 3, 2 ranks (16 or 17 samples each per step)" "$dir/two.out" || fail "rank 0 did not report its 2 ranks"
[ "$(grep -c "training files" "$dir/two.out")" -eq 1 ] || fail "rank 1 logged (only rank 0 logs)"
grep -q "pretrain: step 4, checkpoint" "$dir/two.out" || fail "rank 0 did not report the end of the run"
[ "$(grep -c "pretrain: step 4, checkpoint" "$dir/two.out")" -eq 1 ] || fail "more than one rank reported the run"
[ -f "$dir/two/checkpoints/step-000000000004.ckpt" ] || fail "no checkpoint of step 4"
python3 - "$dir/two/report.json" "$dir/two/metrics.jsonl" << 'PY' || fail "report of the 2-rank run"
import json, sys
report = json.load(open(sys.argv[1]))
assert report["world_size"] == 2, report["world_size"]
shards = report["train_files_per_rank"]
# Six logs, a share held out: the two shards of a pass are the training split, each file once.
assert len(shards) == 2 and min(shards) >= 1 and sum(shards) == report["train_files"], (shards, report["train_files"])
assert report["samples"] == 4 * 33, report["samples"]  # the union's batch each step
losses = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
assert [r["step"] for r in losses if "loss" in r] == [1, 2, 3, 4], losses  # one writer, each step once
PY

# 2. Resume across world sizes: 2 -> 1, then a 1-rank run -> 2.
"$hydra" pretrain "${small[@]}" --max-steps 6 --run-dir "$dir/two" --resume > "$dir/two_to_one.out" 2>&1 ||
  fail "the 2-rank checkpoint did not resume with 1 rank"
grep -q "written by 2 rank(s), now 1" "$dir/two_to_one.out" || fail "the resume did not name the world sizes"
grep -q "pretrain: step 6, checkpoint" "$dir/two_to_one.out" || fail "the 1-rank resume did not reach step 6"
"$hydra" pretrain "${small[@]}" --max-steps 2 --run-dir "$dir/one" > "$dir/one.out" 2>&1 || fail "1-rank run failed"
"$hydra" pretrain "${small[@]}" --max-steps 4 --nproc 2 --run-dir "$dir/one" --resume > "$dir/one_to_two.out" 2>&1 ||
  fail "the 1-rank checkpoint did not resume with 2 ranks"
grep -q "written by 1 rank(s), now 2" "$dir/one_to_two.out" || fail "the 2-rank resume did not name the world sizes"
grep -q "pretrain: step 4, checkpoint" "$dir/one_to_two.out" || fail "the 2-rank resume did not reach step 4"

# 3. torchrun starts the same ranks.
if [ -n "$torchrun" ] && [ -x "$torchrun" ]; then
  "$torchrun" --no-python --standalone --nproc-per-node 2 "$hydra" pretrain "${small[@]}" --max-steps 2 \
    --run-dir "$dir/torchrun" > "$dir/torchrun.out" 2>&1 || fail "torchrun --no-python failed"
  grep -q "2 ranks" "$dir/torchrun.out" || fail "under torchrun rank 0 did not report 2 ranks"
  [ -f "$dir/torchrun/checkpoints/step-000000000002.ckpt" ] || fail "no checkpoint under torchrun"
else
  echo "pretrain_ranks.sh: no torchrun (the torch venv's bin/torchrun): the torchrun part is skipped"
fi
echo "pretrain_ranks.sh: 2 ranks, resume 2 -> 1 and 1 -> 2, torchrun"
