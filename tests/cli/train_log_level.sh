#!/usr/bin/env bash
# train_log_level.sh HYDRA: the run config's run.log_level quiets `hydra train`, and the global
# --log-level flag, when given, wins over it.
set -euo pipefail
hydra=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
args=(train --config "$(dirname "$0")/../../configs/quickstart.json" --device cpu --max-updates 1
      --set selfplay.games=2 --set ppo.rollout_samples=64 --set ppo.minibatch=64 --set run.log_level=warn)
quiet=$("$hydra" "${args[@]}" --run-dir "$dir/a" 2>&1)
if grep -q '\[info\]' <<< "$quiet"; then echo "run.log_level=warn still printed info lines:"; echo "$quiet"; exit 1; fi
grep -q '^train: ' <<< "$quiet" || { echo "no result line:"; echo "$quiet"; exit 1; }
loud=$("$hydra" --log-level info "${args[@]}" --run-dir "$dir/b" 2>&1)
grep -q '\[info\]' <<< "$loud" || { echo "--log-level info did not win over run.log_level=warn:"; echo "$loud"; exit 1; }
echo "ok"
