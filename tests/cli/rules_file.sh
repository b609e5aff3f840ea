#!/usr/bin/env bash
# rules_file.sh HYDRA RULES_DIR: a rules file of one's own works wherever a preset is named.
# Tenhou rules with 2,000 starting points and no tobi: self-play under the file plays on below 0
# and its logs replay clean under the same file; under plain `tenhou` they are skipped for their
# start scores; under the same file with tobi on, the games that went on after a score fell
# below 0 fail.
set -eu
hydra=$1
rules_dir=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sed -e 's/"name": "tenhou"/"name": "poor-no-tobi"/' -e 's/"start_score": 25000/"start_score": 2000/' \
  -e 's/"tobi": true/"tobi": false/' "$rules_dir/tenhou.json" > "$dir/no_tobi.json"
sed -e 's/"name": "poor-no-tobi"/"name": "poor"/' -e 's/"tobi": false/"tobi": true/' "$dir/no_tobi.json" > "$dir/tobi.json"
grep -q '"tobi": false' "$dir/no_tobi.json" && grep -q '"start_score": 2000' "$dir/tobi.json"
"$hydra" selfplay --agents random,random,random,random --games 40 --seed 5 --rules "$dir/no_tobi.json" --out "$dir/a" --threads 1
"$hydra" replay --check --rules "$dir/no_tobi.json" "$dir/a/logs" | tee "$dir/own.txt"
grep -q "40 files: 40 pass" "$dir/own.txt"
"$hydra" replay --check "$dir/a/logs" > "$dir/tenhou.txt"
grep -q "40 files: 0 pass, 0 fail, 40 skipped" "$dir/tenhou.txt"
grep -q "unsupported rule: start scores \[2000,2000,2000,2000\]: the rules 'tenhou' start every player at 25000" "$dir/tenhou.txt"
if "$hydra" replay --check --rules "$dir/tobi.json" "$dir/a/logs" > "$dir/tobi.txt" 2>&1; then
  echo "rules_file.sh: games that went on below 0 passed with tobi on" >&2
  exit 1
fi
grep "FAIL" "$dir/tobi.txt" | grep -q "start_kyoku after the game should have ended (poor)"
echo "rules_file.sh: 40 games clean under their own rules, skipped under tenhou; with tobi on $(grep -c FAIL "$dir/tobi.txt") fail"
