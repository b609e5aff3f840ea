#!/usr/bin/env bash
# The random-play property test at scale: seeded random-agent tenhou hanchan with every check of
# tests/game/test_random_games.cpp at every decision (all 136 tiles accounted for, points plus
# sticks conserved, a legal action at every decision, the mask equal to the move list, every
# move accepted by the seat's own legality check, every game ends, and the table's event stream
# passes the replay checker), split into shards that run in parallel.
#   scripts/random_games.sh [--games N] [--jobs J] [--seed S] [--build-dir DIR]
# Defaults: 1,000,000 games, one shard per core, seed 20260101, the torch-free build in
# build-notorch (built when missing). Exit 0 only when every shard passed.
set -euo pipefail
source "$(dirname "$0")/common.sh"

games=1000000; jobs=$(jobs_default); seed=20260101; build_dir=$HYDRA_ROOT/build-notorch
while [ $# -gt 0 ]; do
  case "$1" in
    --games) games=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --build-dir) build_dir=$2; shift 2 ;;
    *) echo "random_games.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[ "$games" -ge 1 ] && [ "$jobs" -ge 1 ] || { echo "random_games.sh: --games and --jobs must be >= 1" >&2; exit 2; }
bin=$build_dir/tests/game/test_game_random_games
[ -x "$bin" ] || "$HYDRA_ROOT/scripts/build.sh" --no-torch --build-dir "$build_dir" >/dev/null

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
say "$games random hanchan (seed $seed) in $jobs shards with $bin"
start=$(date +%s)
pids=()
for ((j = 0; j < jobs; j++)); do
  first=$((games * j / jobs)); n=$((games * (j + 1) / jobs - first))
  HYDRA_RANDOM_GAMES=$n HYDRA_RANDOM_FIRST=$first HYDRA_RANDOM_SEED=$seed \
    "$bin" --gtest_filter=RandomGames.ManyFromEnvironment --gtest_output="json:$out/shard$j.json" \
    > "$out/shard$j.log" 2>&1 &
  pids+=($!)
done
failed=0
for ((j = 0; j < jobs; j++)); do
  if ! wait "${pids[$j]}"; then
    failed=1
    echo "random_games.sh: shard $j failed:" >&2
    grep -A8 -m3 "Failure" "$out/shard$j.log" >&2 || tail -20 "$out/shard$j.log" >&2
  fi
done
secs=$(( $(date +%s) - start ))
python3 - "$out" "$games" "$secs" <<'PY'
import glob, json, sys
out, want, secs = sys.argv[1], int(sys.argv[2]), max(int(sys.argv[3]), 1)
tot = {"games": 0, "kyoku": 0, "decisions": 0, "horas": 0}
for f in glob.glob(out + "/shard*.json"):
    for suite in json.load(open(f)).get("testsuites", []):
        for t in suite.get("testsuite", []):
            for k in tot:
                tot[k] += int(t.get(k, 0))
print(f"[hydra] {tot['games']:,} of {want:,} games checked: {tot['kyoku']:,} kyoku, {tot['decisions']:,} decisions, "
      f"{tot['horas']:,} horas in {secs:,} s ({tot['games'] / secs:,.0f} checked games/s)")
sys.exit(0 if tot["games"] == want else 1)
PY
[ "$failed" = 0 ] || exit 1
