#!/usr/bin/env bash
# hostile_input.sh HYDRA REGRESSIONS: the reported hostile inputs end to end (the fuzz reproducers
# of tests/fuzz/regressions as files a user would hand to hydra): deep nesting, numbers out of
# range and bytes that are not UTF-8 give exit 1 with a message naming the file, line or flag -
# never exit 3 (internal error) or a signal - and batches report each file and go on. Everything
# Hydra prints must be UTF-8.
set -u
hydra=$1; reg=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "hostile_input.sh: $*" >&2; exit 1; }
# run WANT_RC PATTERN -- ARGS...: exit code and output as wanted, output UTF-8.
run() {
  local want=$1 pattern=$2; shift 3
  "$hydra" "$@" > "$dir/out" 2>&1 < "${stdin:-/dev/null}"; local rc=$?
  head -c 2000 "$dir/out"; echo
  [ "$rc" -eq "$want" ] || fail "hydra $*: exit $rc, wanted $want"
  grep -Eq -- "$pattern" "$dir/out" || fail "hydra $*: output does not match /$pattern/"
  iconv -f UTF-8 -t UTF-8 "$dir/out" > /dev/null || fail "hydra $*: output is not UTF-8"
}
deep=$(printf '%*s' 75000 '' | tr ' ' '[')

# 1. Deep nesting: config file, --set, tenhou.net/6 in replay and convert, bot input.
printf '{"run": %s' "$deep" > "$dir/deep.json"
run 1 "config error in '$dir/deep.json': line 1, column 72: nested deeper than 64 levels" -- config show --config "$dir/deep.json"
run 1 "bad --set 'run.name=\[\[\[.*\.\.\. \(75009 bytes\)': nested deeper" -- config show --set "run.name=$deep"
mkdir "$dir/logs"
printf '{"name":["a","b","c","d"],"rule":{"aka":1},"log":%s' "$deep" > "$dir/logs/a_deep.json"
cp "$reg/tenhou6/number_out_of_range.json" "$dir/logs/b_overflow.json"
cp "$reg/tenhou_xml/invalid_utf8_name.xml" "$dir/logs/c_name.xml"
run 1 "ERROR  $dir/logs/a_deep.json  $dir/logs/a_deep.json:1: broken JSON: column 113: nested deeper" -- replay --check "$dir/logs"
grep -q "^ERROR  $dir/logs/b_overflow.json  .*b_overflow.json:1: broken JSON: column 90: number out of range: 1e999" "$dir/out" || fail "replay: no per-file error for 1e999"
grep -q "^pass  $dir/logs/c_name.xml" "$dir/out" || fail "replay: the XML after the bad files was not checked"
grep -q "3 files: 1 pass, 0 fail, 0 skipped, 2 error" "$dir/out" || fail "replay: summary"
run 1 "converted 1 of 3 files" -- convert "$dir/logs" --out "$dir/conv"
grep -q "^failed       $dir/logs/a_deep.json:1: broken JSON: column 113: nested deeper" "$dir/out" || fail "convert: deep file not reported"
grep -q "^ok           $dir/logs/c_name.xml" "$dir/out" || fail "convert: a name that is not UTF-8 must convert"
zcat "$dir/conv/c_name.json.gz" | iconv -f UTF-8 -t UTF-8 > /dev/null || fail "convert wrote text that is not UTF-8"
zcat "$dir/conv/c_name.json.gz" | grep -qF $'"names":["\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdname"' || fail "convert: U+FFFD expected in the name"
printf '{"type":"start_game","id":0}\n%s\n{"type":"end_game"}\n' "$deep" > "$dir/bot.in"
stdin=$dir/bot.in run 0 "line 2: broken JSON: line 1, column 65: nested deeper than 64 levels" -- bot --model bot:greedy --seat 0
[ "$(grep -c '{"type":"none"}' "$dir/out")" -eq 3 ] || fail "bot: one reply per line expected"

# 2. Numbers out of range: config file, --set.
printf '{"ppo": {\n  "lr": 1e999}}\n' > "$dir/big.json"
run 1 "config error in '$dir/big.json': line 2, column 9: number out of range: 1e999" -- config show --config "$dir/big.json"
run 1 "bad --set 'ppo.lr=1e999': number out of range: 1e999" -- config show --set ppo.lr=1e999

# 3. Bytes that are not UTF-8: --set, hand --batch on binary garbage (one reply per line).
run 1 "config error in '--set run.name=.*': run.name: .* is not valid UTF-8 text" -- config show --set "run.name=$(printf '\xff')"
head -c 3000 /dev/urandom | tr '\n' 'x' > "$dir/garbage"; printf '\n\xff\xfe{"hand":"\xc3"}\n{"hand":"123m456p789s1122z","honba":1e999}\n' >> "$dir/garbage"
run 0 '"line":3' -- hand --batch "$dir/garbage"
[ "$(grep -c '"error":' "$dir/out")" -eq 3 ] || fail "hand --batch: one error reply per line expected"
echo "hostile_input.sh: all cases exit 0 or 1 with their place named, output UTF-8"
