#!/usr/bin/env bash
# Start time and peak RSS of hydra commands that need no network (docs/ARCHITECTURE.md "LibTorch
# on demand"): `hydra --version` and `hydra bot --model bot:greedy` answering a short game start
# (start_game, start_kyoku, its own draw). Each command runs RUNS times under /usr/bin/time -v;
# the medians of wall time and maximum resident set size are printed.
#   scripts/start_cost.sh [HYDRA] [RUNS]     (default: build/apps/hydra, 9 runs)
set -euo pipefail
source "$(dirname "$0")/common.sh"
hydra=${1:-$HYDRA_ROOT/build/apps/hydra}
runs=${2:-9}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
hidden='["?","?","?","?","?","?","?","?","?","?","?","?","?"]'
{
  echo '{"type":"start_game","id":0,"names":["a","b","c","d"]}'
  echo '{"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"dora_marker":"9p","scores":[25000,25000,25000,25000],"tehais":[["1m","4m","7m","1p","4p","7p","1s","4s","7s","E","S","W","N"],'"$hidden,$hidden,$hidden"']}'
  echo '{"type":"tsumo","actor":0,"pai":"P"}'
} > "$dir/bot.in"
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
measure() {  # $1: label, then the command (stdin from $dir/in)
  local label=$1; shift
  : > "$dir/wall"; : > "$dir/rss"
  for _ in $(seq "$runs"); do
    /usr/bin/time -v "$@" < "$dir/in" > "$dir/out" 2> "$dir/time" || { cat "$dir/time" >&2; exit 1; }
    awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + t[i]; print s}' "$dir/time" >> "$dir/wall"
    awk -F': ' '/Maximum resident set size/ {print $2 / 1024}' "$dir/time" >> "$dir/rss"
  done
  printf '%-40s wall median %6.3f s (min %.3f, max %.3f)   max RSS median %6.1f MB   (%d runs)\n' "$label" \
    "$(median < "$dir/wall")" "$(sort -g "$dir/wall" | head -1)" "$(sort -g "$dir/wall" | tail -1)" "$(median < "$dir/rss")" "$runs"
}
: > "$dir/in"
measure "hydra --version" "$hydra" --version
cp "$dir/bot.in" "$dir/in"
measure "hydra bot --model bot:greedy (3 lines)" "$hydra" bot --model bot:greedy
