#!/usr/bin/env bash
# pretrain_bad_files.sh HYDRA: a folder mixing three good real games with one bad file of each
# kind (corrupt gzip, truncated gzip, broken JSON, an illegal event, not a log at all, and - with
# the Houou corpus - a 3-player Tenhou log): `hydra pretrain` and
# `hydra grp` train on the good games, name every bad file with its reason, and exit 0.
# Skips (exit 77) without HYDRA_TESTDATA.
set -u
hydra=$1
[ -n "${HYDRA_TESTDATA:-}" ] && [ -d "$HYDRA_TESTDATA/mjai" ] || { echo "HYDRA_TESTDATA not set: skipped"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/logs"
set -- $(ls "$HYDRA_TESTDATA"/mjai/*.json.gz | head -n 4)
good1=$1; good2=$2; good3=$3; src=$4
cp "$good1" "$good2" "$good3" "$dir/logs/"
# Corrupt gzip: 64 bytes of the deflate stream overwritten.
cp "$src" "$dir/logs/bad_corrupt.json.gz"
printf '%064d' 0 | dd of="$dir/logs/bad_corrupt.json.gz" bs=1 seek=2000 conv=notrunc status=none
# Truncated gzip: the first half of the file.
size=$(stat -c %s "$src")
head -c $((size / 2)) "$src" > "$dir/logs/bad_truncated.json.gz"
# Broken JSON: line 20 cut in the middle of an object.
gzip -dc "$src" | awk 'NR == 20 { print substr($0, 1, 15); next } { print }' | gzip > "$dir/logs/bad_json.json.gz"
# Illegal event: the first draw repeated (a second tsumo before the discard).
gzip -dc "$src" | awk '{ print } /"type":"tsumo"/ && !done { print; done = 1 }' | gzip > "$dir/logs/bad_event.json.gz"
# Not a log: a gzip of plain text under a log's name.
echo "these are not the logs you are looking for" | gzip > "$dir/logs/bad_notalog.json.gz"
bad=(bad_corrupt.json.gz bad_truncated.json.gz bad_json.json.gz bad_event.json.gz bad_notalog.json.gz)
# A foreign game: a real Houou log relabelled as a 3-player table (GO type 185 = 169 + sanma bit).
houou=$(ls "$HYDRA_TESTDATA"/houou/hanchan_2022/*.mjlog.xml.gz 2>/dev/null | head -n 1)
if [ -n "$houou" ]; then
  gzip -dc "$houou" | sed 's/<GO type="[0-9]*"/<GO type="185"/' | gzip > "$dir/logs/bad_sanma.mjlog.xml.gz"
  bad+=(bad_sanma.mjlog.xml.gz)
fi

fail() { echo "pretrain_bad_files.sh: $*" >&2; exit 1; }
check_named() {  # OUTPUT: every bad file named on a "bad file" line
  for f in "${bad[@]}"; do
    printf '%s\n' "$1" | grep -q "bad file .*$f" || fail "$f is not reported"
  done
}
out=$("$hydra" pretrain --data "$dir/logs" --run-dir "$dir/run" --max-steps 3 --seed 5 \
  --set model.blocks=1 --set model.channels=32 --set pretrain.batch=32 --set pretrain.val_fraction=0 \
  --set train.tensorboard=false --set pretrain.shuffle_buffer=256 2>&1); rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 0 ] || fail "pretrain exit code $rc"
check_named "$out"
printf '%s\n' "$out" | grep -q "pretrain: step 3, checkpoint" || fail "pretrain did not train 3 steps"
[ "$(grep -c '"file":' "$dir/run/report.json")" -eq "${#bad[@]}" ] || fail "report.json does not list exactly the ${#bad[@]} bad files"
grep -q 'bad_json.json.gz' "$dir/run/report.json" || fail "report.json misses bad_json.json.gz"

out=$("$hydra" grp --data "$dir/logs" --run-dir "$dir/grp" --max-steps 5 --seed 5 --set pretrain.val_fraction=0 \
  --set train.tensorboard=false 2>&1); rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 0 ] || fail "grp exit code $rc"
check_named "$out"
printf '%s\n' "$out" | grep -q "3 training games" || fail "grp did not train on the 3 good games"
echo "pretrain_bad_files.sh: trained on the good games, reported the ${#bad[@]} bad ones"
