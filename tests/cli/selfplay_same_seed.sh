#!/usr/bin/env bash
# selfplay_same_seed.sh HYDRA: the same seed writes byte-identical logs on 1 thread and on 4,
# and the logs replay-check clean.
set -eu
hydra=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$hydra" selfplay --agents random,random,random,tsumogiri --games 24 --seed 2026 --out "$dir/a" --threads 1
"$hydra" selfplay --agents random,random,random,tsumogiri --games 24 --seed 2026 --out "$dir/b" --threads 4
diff -r "$dir/a/logs" "$dir/b/logs"
"$hydra" selfplay --agents random,random,random,tsumogiri --games 2 --seed 2027 --out "$dir/c" --threads 1
if cmp -s "$dir/a/logs/game_000000.json.gz" "$dir/c/logs/game_000000.json.gz"; then
  echo "selfplay_same_seed.sh: another seed wrote the same game" >&2
  exit 1
fi
"$hydra" replay --check "$dir/a/logs"
echo "selfplay_same_seed.sh: identical logs, replay clean"
