#!/usr/bin/env bash
# eval_parts.sh HYDRA POOL_EVAL: a duplicate played in two parts (--first-seed) plays the whole
# run's seeds, and scripts/pool_eval.py pools the parts' reports to the whole run's per-seed ranks
# and average rank with its interval; overlapping parts or parts of different runs are refused.
set -eu
hydra=$1 pool=$2
command -v python3 > /dev/null || { echo "eval_parts.sh: skipped: no python3 on PATH"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
args=(eval --challenger bot:greedy --champion bot:random --seed 7 --json)
"$hydra" "${args[@]}" --seeds 5 > "$dir/whole.json"
"$hydra" "${args[@]}" --first-seed 0 --seeds 2 > "$dir/a.json"
"$hydra" "${args[@]}" --first-seed 2 --seeds 3 > "$dir/b.json"
python3 "$pool" "$dir/a.json" "$dir/b.json" --json --out "$dir/pooled.json" > "$dir/pool.txt"
python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
whole = json.load(open(f"{d}/whole.json"))
pool = json.load(open(f"{d}/pool.txt"))
pooled = json.load(open(f"{d}/pooled.json"))
assert pooled["per_seed"] == whole["per_seed"], (pooled["per_seed"], whole["per_seed"])
want = whole["challenger_stats"]["avg_rank"]
got = pool["avg_rank"]
assert abs(got["value"] - want["value"]) < 1e-12, (got, want)
assert all(abs(g - w) < 1e-12 for g, w in zip(got["ci95"], want["ci95"])), (got, want)
assert pool["seeds_played"] == 5 and pool["parts"] == 2
PY
if python3 "$pool" "$dir/a.json" "$dir/a.json" 2> "$dir/err.txt"; then
  echo "eval_parts.sh: overlapping parts were pooled" >&2; exit 1
fi
grep -q "seed 0 is also in another part" "$dir/err.txt"
"$hydra" eval --challenger bot:random --champion bot:random --seed 7 --json --first-seed 5 --seeds 2 > "$dir/c.json"
if python3 "$pool" "$dir/a.json" "$dir/c.json" 2> "$dir/err.txt"; then
  echo "eval_parts.sh: parts of different runs were pooled" >&2; exit 1
fi
grep -q "field 'challenger' is 'bot:random', but .*a.json has 'bot:greedy'" "$dir/err.txt"
echo "eval_parts.sh: two parts pool to the whole run's per-seed ranks and average rank"
