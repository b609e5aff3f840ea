#!/usr/bin/env bash
# eval_journal.sh HYDRA: hydra eval --journal keeps every finished seed. A run killed part way
# (SIGKILL, nothing flushed at exit) and started again with the same command plays only the seeds
# its journal lacks and prints the uninterrupted run's report byte for byte; a journal of another
# run is refused with an error naming the file, the line and the field, and left as it was.
set -eu
hydra=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
args=(eval --challenger bot:greedy --champion bot:random --seeds 60 --seed 5 --json)
"$hydra" "${args[@]}" > "$dir/whole.json" 2> /dev/null
"$hydra" "${args[@]}" --journal "$dir/j.jsonl" > /dev/null 2>&1 &
pid=$!
# Kill it once some seeds are in (or it may have ended: the journal is then whole).
for _ in $(seq 1 200); do
  [ "$(wc -l 2> /dev/null < "$dir/j.jsonl" || echo 0)" -ge 6 ] && break
  sleep 0.05
done
kill -9 "$pid" 2> /dev/null || true
wait "$pid" 2> /dev/null || true
kept=$(($(wc -l < "$dir/j.jsonl") - 1))
"$hydra" "${args[@]}" --journal "$dir/j.jsonl" > "$dir/resumed.json" 2> "$dir/err.txt"
diff "$dir/whole.json" "$dir/resumed.json"
grep -q "eval: $kept of 60 seeds read back from the journal" "$dir/err.txt" || { cat "$dir/err.txt" >&2; exit 1; }
[ "$(wc -l < "$dir/j.jsonl")" -eq 61 ] || { echo "eval_journal.sh: expected the header and 60 seeds" >&2; exit 1; }
cp "$dir/j.jsonl" "$dir/before.jsonl"
if "$hydra" eval --challenger bot:greedy --champion bot:random --seeds 60 --seed 6 --journal "$dir/j.jsonl" \
     > /dev/null 2> "$dir/err.txt"; then
  echo "eval_journal.sh: a journal of another master seed was continued" >&2; exit 1
fi
grep -q "j.jsonl:1: field 'run.seed': the journal is of another run (5, this run has 6)" "$dir/err.txt" ||
  { cat "$dir/err.txt" >&2; exit 1; }
cmp "$dir/j.jsonl" "$dir/before.jsonl"
echo "eval_journal.sh: killed after $kept of 60 seeds, continued to the whole run's report; another run's journal refused"
