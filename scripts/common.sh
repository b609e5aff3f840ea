# Shared settings for the scripts (sourced, not run).
HYDRA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HYDRA_CACHE=${HYDRA_CACHE:-$HOME/.cache/hydra}
HYDRA_VENV=$HYDRA_CACHE/venv
HYDRA_TORCH_VERSION=2.11.0   # pinned: the PyPI wheel is built for CUDA 13.0
export CCACHE_DIR=${CCACHE_DIR:-$HYDRA_CACHE/ccache}
# Paths relative to the checkout, so clones in different folders share cache entries.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$HYDRA_ROOT}
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
# Real-data tests read this; the shared data folder sits beside the checkout.
if [ -z "${HYDRA_TESTDATA:-}" ] && [ -d "$HYDRA_ROOT/../shared/data" ]; then
  export HYDRA_TESTDATA=$(cd "$HYDRA_ROOT/../shared/data" && pwd)
fi
say() { printf '[hydra] %s\n' "$*"; }
jobs_default() { nproc 2>/dev/null || echo 2; }
