#!/usr/bin/env bash
# peers_sample.sh HYDRA SCRIPTS_DIR: small fixed samples of the peer harnesses (docs/PEERS.md):
# Hydra's hanchan stepped through RiichiEnv on the same walls and RiichiEnv's hanchan through
# `hydra replay --check` (scripts/diff_riichienv.py), and `hydra bot` inside the mjai.app
# simulator (scripts/mjai_host.py). Each needs its pinned PyPI package in a venv under
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
echo "peers_sample.sh: all agreed"
