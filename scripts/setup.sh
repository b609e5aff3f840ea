#!/usr/bin/env bash
# Installs what Hydra needs and is missing: Debian packages, and a virtualenv with the pinned
# PyPI torch wheel (its bundled LibTorch) under ~/.cache/hydra, outside the repository, so fresh
# clones and CI reuse it. Idempotent: a second run checks and returns in seconds.
set -euo pipefail
source "$(dirname "$0")/common.sh"

APT_PACKAGES=(
  build-essential cmake ninja-build ccache git pkg-config python3 python3-venv
  libtbb-dev nlohmann-json3-dev libcli11-dev libspdlog-dev libfmt-dev
  zlib1g-dev libssl-dev libgtest-dev libgmock-dev libbenchmark-dev
  libprotobuf-dev protobuf-compiler libsimdjson-dev libpugixml-dev libboost-dev
  patchelf
  chromium  # headless, for the browser check of `hydra review` pages (tests/cli/review_page.sh)
)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  say "Debian packages: all ${#APT_PACKAGES[@]} present"
fi

# Optional: the headers of torch.distributed's Gloo backend (multi-process training,
# docs/DISTRIBUTED.md). Hydra builds without them, in one process; a failed install says so.
OPTIONAL_PACKAGES=(libgloo-dev)
for p in "${OPTIONAL_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && continue
  say "installing optional Debian package: $p"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$p"; } ||
    echo "setup.sh: warning: $p did not install: Hydra builds without multi-process training (docs/DISTRIBUTED.md)" >&2
done

torch_ok() {
  [ -x "$HYDRA_VENV/bin/python" ] &&
    "$HYDRA_VENV/bin/python" - "$HYDRA_TORCH_VERSION" <<'PY' 2>/dev/null
import sys, importlib.metadata as md
sys.exit(0 if md.version("torch").split("+")[0] == sys.argv[1] else 1)
PY
}
if torch_ok; then
  say "torch $HYDRA_TORCH_VERSION: present in $HYDRA_VENV"
else
  say "installing torch==$HYDRA_TORCH_VERSION (CUDA 13.0 wheel with its LibTorch; several GB, once) into $HYDRA_VENV"
  mkdir -p "$HYDRA_CACHE"
  [ -x "$HYDRA_VENV/bin/python" ] || python3 -m venv "$HYDRA_VENV"
  "$HYDRA_VENV/bin/pip" install --quiet "torch==$HYDRA_TORCH_VERSION"
  torch_ok || { echo "setup.sh: torch $HYDRA_TORCH_VERSION did not install" >&2; exit 1; }
fi
mkdir -p "$CCACHE_DIR"
say "setup complete"
