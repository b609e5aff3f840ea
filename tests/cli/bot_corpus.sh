#!/usr/bin/env bash
# bot_corpus.sh HYDRA: feeds every real mjai game in $HYDRA_TESTDATA/mjai to `hydra bot` (one
# seat per game, rotating) plus a malformed line; the bot must answer every non-blank line with
# one JSON line, report only the malformed line on stderr, and exit 0.
set -eu
hydra=$1
data=${HYDRA_TESTDATA:-}/mjai
if [ -z "${HYDRA_TESTDATA:-}" ] || [ ! -d "$data" ]; then echo "bot_corpus.sh: HYDRA_TESTDATA not set: skipped"; exit 0; fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
n=0; lines=0
for f in "$data"/*.json.gz; do
  seat=$((n % 4)); n=$((n + 1))
  { echo '{"type":"broken'; zcat "$f"; } > "$dir/in"
  "$hydra" bot --model bot:greedy --seat "$seat" < "$dir/in" > "$dir/out" 2> "$dir/err"
  want=$(grep -c . "$dir/in"); got=$(wc -l < "$dir/out")
  [ "$want" -eq "$got" ] || { echo "bot_corpus.sh: $f: $got replies to $want lines" >&2; exit 1; }
  [ "$(grep -c "^hydra bot: line" "$dir/err")" -eq 1 ] && grep -q 'line 1: broken JSON' "$dir/err" || { echo "bot_corpus.sh: $f:" >&2; cat "$dir/err" >&2; exit 1; }
  lines=$((lines + got))
done
echo "bot_corpus.sh: $n games, $lines replies, no crash"
