#!/usr/bin/env bash
# bot_bad_events.sh HYDRA: a host that sends inconsistent events (a riichi with no tenpai
# discard, a deal with five copies, a hand left the wrong size, a fifth and sixth visible copy,
# a hidden discard). `hydra bot` must refuse each such line whole with one line on stderr that
# says why, answer every line, never report an internal error, and exit 0.
set -u
hydra=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "bot_bad_events.sh: $*" >&2; cat "$dir/err" >&2; exit 1; }
hidden='["?","?","?","?","?","?","?","?","?","?","?","?","?"]'
kyoku() {  # $1: seat 0's hand, $2: the dora indicator
  echo '{"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"dora_marker":"'"$2"'","scores":[25000,25000,25000,25000],"tehais":['"$1,$hidden,$hidden,$hidden"']}'
}
{
  echo '{"type":"start_game","names":["a","b","c","d"]}'
  kyoku '["1m","4m","7m","1p","4p","7p","1s","4s","7s","E","S","W","N"]' 9p
  echo '{"type":"tsumo","actor":0,"pai":"P"}'
  echo '{"type":"reach","actor":0}'                                             # bad: no tenpai discard
  echo '{"type":"dahai","actor":0,"pai":"P","tsumogiri":true}'
  kyoku '["1m","1m","1m","1m","1m","5p","6p","7s","8s","9s","E","S","W"]' 9p   # bad: five 1m
  echo '{"type":"tsumo","actor":1,"pai":"?"}'
  echo '{"type":"dahai","actor":1,"pai":"C","tsumogiri":true}'
  kyoku '["1m","1m","1m","1m","2m","2m","2m","2m","3p","4p","5p","E","E"]' 9p
  echo '{"type":"tsumo","actor":0,"pai":"W"}'
  echo '{"type":"ankan","actor":0,"consumed":["1m","1m","1m","1m"]}'
  echo '{"type":"ankan","actor":0,"consumed":["2m","2m","2m","2m"]}'          # bad: 12 tiles
  echo '{"type":"tsumo","actor":0,"pai":"N"}'
  echo '{"type":"dahai","actor":1,"pai":"9s","tsumogiri":false}'             # bad: seat 0 holds 14
  echo '{"type":"dahai","actor":0,"pai":"N","tsumogiri":true}'
  for s in 1 2 3 1 2 3; do                                                    # bad: the 5th and 6th C
    echo '[{"type":"tsumo","actor":'$s',"pai":"?"},{"type":"dahai","actor":'$s',"pai":"C","tsumogiri":true}]'
  done
  echo '{"type":"dahai","actor":2,"pai":"?","tsumogiri":true}'               # bad: a hidden discard
  echo '{"type":"tsumo","actor":0,"pai":"S"}'
} > "$dir/in"
"$hydra" bot --model bot:greedy --seat 0 < "$dir/in" > "$dir/out" 2> "$dir/err"
rc=$?
[ "$rc" -eq 0 ] || fail "exit code $rc"
want=$(grep -c . "$dir/in"); got=$(wc -l < "$dir/out")
[ "$want" -eq "$got" ] || fail "$got replies to $want lines"
grep -q 'internal error\|invariant' "$dir/err" && fail "an internal error"
n=$(grep -c "^hydra bot: line" "$dir/err")
[ "$n" -eq 7 ] || fail "$n error lines, wanted 7"
for pattern in 'line 4: .*riichi without a discard that keeps it tenpai' 'line 6: .*five of a kind' \
               'line 12: .*closed tiles' 'line 14: .*closed tiles' 'line 20: .*5 visible copies of C' \
               'line 21: .*6 visible copies of C|line 21: .*5 visible copies of C' 'line 22: '; do
  grep -Eq "$pattern" "$dir/err" || fail "no error line matching /$pattern/"
done
# The last line is the seat's own draw: the bot still plays (an action, not "none").
tail -1 "$dir/out" | grep -q '"type":"none"' && fail "no action after the refused lines: $(tail -1 "$dir/out")"
echo "bot_bad_events.sh: $want lines, $n refused, no internal error"
