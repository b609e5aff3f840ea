#!/usr/bin/env bash
# check_bench.sh HYDRA: `hydra check --device cpu` on the quickstart model passes every check,
# each number within its threshold in --json; `hydra bench model|learner|selfplay --json` print
# every documented field with positive values (bench learner's --profile too: its operators and
# a Chrome trace that parses), and `bench pretrain` on the shared mjai logs (speed itself is measured, never asserted). Small
# inputs and one thread keep it to seconds on a shared machine.
set -eu
hydra=$1
common=(--device cpu --threads 1 --seed 3)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check=$("$hydra" check "${common[@]}" --positions 24 --json)
model=$("$hydra" bench model "${common[@]}" --batch-sizes 1,8 --seconds 0.05 --json)
learner=$("$hydra" bench learner "${common[@]}" --samples 64 --set ppo.minibatch=32 --seconds 0 --peak-tflops 1 \
  --profile "$tmp/trace.json" --json)
# Every advantage estimator: the bench's rollout carries the fields each one reads.
for extra in "ppo.advantage=rollout" "ppo.policy_gradient=expected ppo.advantage=rollout" "ppo.critic=privileged"; do
  sets=(); for kv in $extra; do sets+=(--set "$kv"); done
  "$hydra" bench learner "${common[@]}" --samples 64 --set ppo.minibatch=32 --seconds 0 "${sets[@]}" --json |
    python3 -c 'import json, sys; j = json.load(sys.stdin); assert j["trained_samples_per_s"] > 0, j' ||
    { echo "check_bench.sh: bench learner failed with $extra" >&2; exit 1; }
done
selfplay=$("$hydra" bench selfplay "${common[@]}" --set selfplay.games=2 --set ppo.rollout_samples=1 --set ppo.minibatch=1 --seconds 0 --json)
# With play-outs (one-kyoku games, 2 walls of the greedy bot): their decisions apart from the games'.
playouts=$("$hydra" bench selfplay "${common[@]}" --set selfplay.games=2 --set ppo.rollout_samples=1 --set ppo.minibatch=1 \
  --set ppo.advantage=rollout --set selfplay.play_outs=2 --set rules.length=kyoku --seconds 0 --json)
# Real positions from logs too, and the pretraining bench, when the shared data is there.
pretrain='{}'
if [ -n "${HYDRA_TESTDATA:-}" ] && [ -d "$HYDRA_TESTDATA/mjai" ]; then
  "$hydra" check "${common[@]}" --positions 16 --data "$HYDRA_TESTDATA/mjai" --json | grep -q '"passed": true'
  pretrain=$("$hydra" bench pretrain "${common[@]}" --data "$HYDRA_TESTDATA/mjai" --set pretrain.batch=32 \
    --set pretrain.shuffle_buffer=256 --seconds 0 --json)
else
  echo "check_bench.sh: HYDRA_TESTDATA not set: bench pretrain not run"
fi
info=$("$hydra" info --torch --json)
python3 - "$check" "$model" "$learner" "$selfplay" "$pretrain" "$info" "$tmp/trace.json" "$playouts" <<'PY'
import json, math, sys
check, model, learner, selfplay, pretrain, info = (json.loads(a) for a in sys.argv[1:7])
playouts = json.loads(sys.argv[8])
with open(sys.argv[7]) as f:
    trace = json.load(f)

def positive(obj, keys, where):
    for k in keys:
        v = obj[k]  # KeyError names a missing key
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not v > 0:
            sys.exit(f"{where}: {k} = {v!r} is not a positive number")

names = [c["name"] for c in check["checks"]]
want = ["bf16_policy", "bf16_value", "bf16_grp", "bf16_tenpai", "bf16_danger"]
if info["cpu_bf16_inference"]:  # a CPU with AVX-512: model.cpu_bf16_inference's forward against fp32
    want += ["cpu_bf16_policy", "cpu_bf16_value", "cpu_bf16_argmax"]
want += ["batched_vs_single", "update_finite", "update_lowers_loss", "checkpoint_weights", "checkpoint_outputs"]
if info["distributed_gloo"]:  # a build with Gloo: one update in a one-rank group, two ranks' all-reduce
    want += ["gloo_update", "gloo_all_reduce"]
assert names == want, names
for c in check["checks"]:
    v, t = c["value"], c["threshold"]
    ok = v < t if c["compare"] == "<" else v <= t
    assert ok and c["pass"], c
assert check["passed"] is True and check["device"] == "cpu" and check["positions"] == 24, check
assert (check["blocks"], check["channels"]) == (4, 64), check  # the quickstart model by default

assert model["bench"] == "model" and [r["batch"] for r in model["results"]] == [1, 8], model
positive(model, ["forward_flops_per_sample"], "model")
for r in model["results"]:
    positive(r, ["passes", "seconds", "samples_per_s", "ms_per_pass", "tflops"], f"model batch {r['batch']}")
    assert math.isclose(r["samples_per_s"], r["batch"] * r["passes"] / r["seconds"], rel_tol=1e-9), r

assert learner["bench"] == "learner" and learner["rollout_samples"] == 64 and learner["minibatch"] == 32, learner
positive(learner, ["updates", "update_seconds", "rollout_samples_per_s", "trained_samples_per_s",
                   "train_flops_per_sample", "tflops", "peak_tflops", "peak_fraction"], "learner")
# 3 epochs of every sample: trained = rollout x epochs.
assert math.isclose(learner["trained_samples_per_s"], 3 * learner["rollout_samples_per_s"], rel_tol=1e-9), learner
assert math.isclose(learner["train_flops_per_sample"], 3 * learner["forward_flops_per_sample"], rel_tol=1e-12), learner
assert math.isclose(learner["peak_fraction"], learner["tflops"] / 1.0, rel_tol=1e-9), learner
# The profiled update (on the CPU: operators with inclusive times) and its trace.
prof = learner["profile"]
assert prof["device"] == "cpu" and prof["busy_seconds"] == 0, prof
positive(prof, ["wall_seconds", "events", "event_seconds"], "learner profile")
top = prof["top"]
assert top and all(t["name"].startswith("aten::") and t["calls"] > 0 for t in top), top
assert [t["seconds"] for t in top] == sorted((t["seconds"] for t in top), reverse=True), top
traced = {e["name"] for e in trace["traceEvents"] if "name" in e}
assert all(t["name"] in traced for t in top), (top, len(traced))

assert selfplay["bench"] == "selfplay" and selfplay["concurrent_games"] == 2 and selfplay["cpu_threads"] == 1, selfplay
positive(selfplay, ["collects", "games", "kyoku", "decisions", "network_decisions", "learner_samples",
                    "forward_passes", "mean_batch", "wall_s", "games_per_hour", "learner_samples_per_s"], "selfplay")
positive(selfplay["seconds"], ["engine", "encode", "inference"], "selfplay seconds")
# On the CPU the actors run one group of games (no inference thread): the games never wait on it.
assert selfplay["seconds"]["wait"] == 0, selfplay
assert selfplay["games"] == 2, selfplay  # one game per slot when one sample is enough
assert math.isclose(selfplay["games_per_hour"], 3600 * selfplay["games"] / selfplay["wall_s"], rel_tol=1e-9), selfplay
for k, v in selfplay["share_of_wall"].items():
    assert math.isclose(v, selfplay["seconds"][k] / selfplay["wall_s"], rel_tol=1e-9), (k, selfplay)
assert "play_outs" not in selfplay, selfplay
po = playouts["play_outs"]
assert po["agent"] == "bot:greedy" and po["walls"] == 2 and po["decisions"] > 0, po
assert 0 < po["played_out"] <= po["eligible_decisions"] <= playouts["learner_samples"], playouts
assert math.isclose(po["decisions_per_learner_sample"], po["decisions"] / playouts["learner_samples"], rel_tol=1e-9), playouts
assert math.isclose(po["decisions_per_s"], po["decisions"] / playouts["wall_s"], rel_tol=1e-9), playouts
if pretrain:
    assert pretrain["bench"] == "pretrain" and pretrain["batch"] == 32 and pretrain["cpu_threads"] == 1, pretrain
    positive(pretrain, ["files", "pipeline_over_learner"], "pretrain")
    positive(pretrain["pipeline"], ["samples", "seconds", "samples_per_s", "files_read"], "pretrain pipeline")
    positive(pretrain["learner"], ["steps", "seconds", "samples_per_s"], "pretrain learner")
    assert pretrain["pipeline"]["bad_files"] == 0, pretrain
    p, l = pretrain["pipeline"], pretrain["learner"]
    assert math.isclose(p["samples_per_s"], p["samples"] / p["seconds"], rel_tol=1e-9), p
    assert math.isclose(pretrain["pipeline_over_learner"], p["samples_per_s"] / l["samples_per_s"], rel_tol=1e-9), pretrain
print("check_bench.sh: check passes on the quickstart model; bench model, learner and selfplay JSON complete")
PY
