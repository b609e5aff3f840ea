#!/usr/bin/env bash
# peers_sample.sh HYDRA SCRIPTS_DIR: small fixed samples of the peer harnesses (docs/PEERS.md):
# Hydra's hanchan stepped through RiichiEnv on the same walls and RiichiEnv's hanchan through
# `hydra replay --check` (scripts/diff_riichienv.py), and `hydra bot` inside the mjai.app
# simulator (scripts/mjai_host.py), and the package's RulebaseBot as an external agent of
# `hydra eval` (scripts/mjai_rulebase_bot.py). Each needs its pinned PyPI package in a venv under
# ~/.cache/hydra; where that cannot be made (no network) the test is skipped (exit 77).
set -eu
hydra=$1
scripts=$2
for venv in "riichienv-venv riichienv 0.4.11" "mjai-venv mjai 0.2.1"; do
  # shellcheck disable=SC2086
  if ! python3 "$scripts/pinned_venv.py" $venv > /dev/null; then
    echo "peers_sample.sh: skipped: cannot make the pinned venv ($venv) - no network to PyPI?"
    exit 77
  fi
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 "$scripts/diff_riichienv.py" all --hydra "$hydra" --work "$dir/diff" --seed 7 \
  --games-hydra 3 --games-riichienv 12 --show 5
python3 "$scripts/mjai_host.py" --hydra "$hydra" --out "$dir/host" --games 2 --kinds hydra4,rulebase-low --check --port 28190
# The package's RulebaseBot as an external agent of hydra eval (docs/EVAL.md): the run completes and
# every game is scored or listed as void.
"$hydra" eval --challenger bot:greedy --champion "mjai.app:python3 $scripts/mjai_rulebase_bot.py {seat}" \
  --seeds 2 --seed 7 --json --mjai-logs "$dir/mjai-logs" > "$dir/rulebase.json"
python3 - "$dir/rulebase.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["games"] + 4 * r["seeds_voided"] == 8, r
PY
echo "peers_sample.sh: all agreed"
