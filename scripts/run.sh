#!/usr/bin/env bash
# The main job for a new user: sets up what is missing, builds, and runs Hydra on the built-in
# quickstart config (CPU when there is no GPU). Until `hydra train` lands it runs the most
# complete job the binary has.
set -euo pipefail
source "$(dirname "$0")/common.sh"
"$HYDRA_ROOT/scripts/setup.sh"
build_dir=$("$HYDRA_ROOT/scripts/build.sh" )
hydra=$build_dir/apps/hydra
config=${1:-$HYDRA_ROOT/configs/quickstart.json}
cd "$HYDRA_ROOT"
say "hydra info"
"$hydra" info
say "effective config ($config)"
"$hydra" config show --config "$config"
