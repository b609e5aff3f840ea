#!/usr/bin/env bash
# eval_same_seed.sh HYDRA: hydra eval prints byte-identical reports (table and JSON) for the same
# seed on 1 thread and on 4, writes the duplicate logs, and the logs replay-check clean.
set -eu
hydra=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
args=(eval --challenger bot:greedy --champion bot:random --seeds 3 --seed 99)
"$hydra" "${args[@]}" --threads 1 > "$dir/a.txt"
"$hydra" "${args[@]}" --threads 4 > "$dir/b.txt"
diff "$dir/a.txt" "$dir/b.txt"
"$hydra" "${args[@]}" --json --threads 1 > "$dir/a.json"
"$hydra" "${args[@]}" --json --threads 4 --logs "$dir/logs" > "$dir/b.json"
diff "$dir/a.json" "$dir/b.json"
grep -q '"avg_rank"' "$dir/a.json"
[ "$(ls "$dir/logs" | wc -l)" -eq 12 ] || { echo "eval_same_seed.sh: expected 12 logs" >&2; exit 1; }
"$hydra" replay --check "$dir/logs"
echo "eval_same_seed.sh: identical reports, 12 logs replay clean"
