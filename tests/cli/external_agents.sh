#!/usr/bin/env bash
# external_agents.sh HYDRA MAKE_CHECKPOINT: `hydra bot` run as an external mjai agent plays
# exactly as the same agent in process (docs/EVAL.md "External agents"): the eval report of
# 'mjai:HYDRA bot --model bot:greedy --seat {seat}' equals bot:greedy's, in both protocol
# flavours, on 1 and 2 threads, with processes reused or one per game; the same for a checkpoint
# (bot --model CKPT) against the in-process checkpoint agent; a TCP client behind
# scripts/mjai_tcp_bridge.py = the same bot over stdin/stdout; hydra selfplay with an external
# seat writes the same games as with the agent in process.
set -eu
hydra=$1
make_checkpoint=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"$make_checkpoint" tiny.ckpt

# Deadlines no load can miss: this test is about what the bots play, not how fast (the deadline
# faults are tests/selfplay/test_external_agent.cpp's).
slow_ok=(--mjai-timeout 120 --mjai-start-timeout 300)
# The report without its challenger line (the agent's name) must be identical.
report() {  # report NAME CHALLENGER CHAMPION [FLAGS...]
  local name=$1 challenger=$2 champion=$3
  shift 3
  "$hydra" eval --challenger "$challenger" --champion "$champion" --seeds 3 --seed 11 --json --device cpu \
    --mjai-logs "$dir/mjai-logs" "${slow_ok[@]}" "$@" 2> "$name.err" | grep -v '"challenger":' > "$name.json"
  grep -q '"seeds_voided": 0' "$name.json" || { echo "external_agents.sh: $name: void games" >&2; cat "$name.json" >&2; exit 1; }
}
same() {
  cmp -s "$1.json" "$2.json" || { echo "external_agents.sh: $2 differs from $1" >&2; diff "$1.json" "$2.json" >&2; exit 1; }
}

report greedy bot:greedy bot:random
for flavour in mjai mjai.app; do
  report "greedy-$flavour" "$flavour:$hydra bot --model bot:greedy --seat {seat}" bot:random --threads 2
  same greedy "greedy-$flavour"
done
report greedy-one-thread "mjai:$hydra bot --model bot:greedy --seat {seat}" bot:random --threads 1
same greedy greedy-one-thread
report greedy-per-game "mjai.app:$hydra bot --model bot:greedy --seat {seat}" bot:random --mjai-process-per-game
same greedy greedy-per-game

report ckpt tiny.ckpt bot:greedy
"$hydra" eval --challenger tiny.ckpt --champion bot:greedy --seeds 3 --seed 11 --json --device cpu > ckpt.json.full 2> /dev/null
for flavour in mjai mjai.app; do
  report "ckpt-$flavour" "$flavour:$hydra bot --model tiny.ckpt --device cpu --seat {seat}" bot:greedy
  same ckpt "ckpt-$flavour"
done

# External seats beside a checkpoint run on the lock-step engine: the same games.
"$hydra" eval --challenger tiny.ckpt --champion "mjai.app:$hydra bot --model bot:greedy --seat {seat}" --seeds 3 \
  --seed 11 --json --device cpu --mjai-logs "$dir/mjai-logs" "${slow_ok[@]}" 2> /dev/null | grep -v '"champion":' > lockstep-ext.json
grep -v '"champion":' ckpt.json.full > lockstep-in.json
same lockstep-in lockstep-ext

# A TCP mjai client behind scripts/mjai_tcp_bridge.py (akochan's way) = the same bot on stdin/stdout;
# the client leaves after every end_game and the bridge starts it again.
root=$(cd "$(dirname "$0")/../.." && pwd)
bot="python3 $root/tests/cli/fault_bot.py"
report tcp-direct "mjai:$bot ok {seat}" bot:greedy
report tcp-bridge "mjai:python3 $root/scripts/mjai_tcp_bridge.py -- $bot --connect {port} ok {seat}" bot:greedy
same tcp-direct tcp-bridge

# Self-play with an external seat: the same games (the logs differ only in the seat's name).
"$hydra" selfplay --agents bot:greedy,bot:random,bot:greedy,bot:tsumogiri --games 3 --seed 5 --out in 2> /dev/null
"$hydra" selfplay --agents "bot:greedy,mjai:$hydra bot --model bot:random --seat {seat},bot:greedy,bot:tsumogiri" \
  --games 3 --seed 5 --out ext --mjai-logs "$dir/mjai-logs" "${slow_ok[@]}" 2> /dev/null
for f in in/logs/*.json.gz; do
  cmp -s <(zcat "$f" | tail -n +2) <(zcat "ext/logs/$(basename "$f")" | tail -n +2) ||
    { echo "external_agents.sh: selfplay $(basename "$f") differs" >&2; exit 1; }
done
grep -q '"games_voided": 0' ext/stats.json
echo "external_agents.sh: external hydra bot = in-process agent (greedy, checkpoint; both flavours; selfplay); TCP bridge = direct"
