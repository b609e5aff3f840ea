#!/usr/bin/env bash
# Proves that a bundle (scripts/package.sh) runs where Debian's libraries and the build are absent.
#   scripts/bundle_check.sh [--bundle ARCHIVE | --build-dir BUILD] [--keep DIR]
# Packs the build (or takes ARCHIVE), unpacks it, and in a private mount namespace (unshare -m,
# root) bind-mounts /dev/null over the system copy of every library the bundle carries and an
# empty tmpfs over the checkout (the build tree with it). There, from the unpacked bundle, with
# LibTorch from the torch venv (~/.cache/hydra/venv):
#   - a copy of the executable without the bundle's lib/ must fail to start (the hiding works);
#   - HYDRA_TORCH_DIR route: hydra info (which must name that route and load no LibTorch), hydra
#     info --torch, a 1-update hydra train, a 1-seed hydra eval of its checkpoint;
#   - python route (the venv's python3 first on PATH): the same;
#   - a HYDRA_TORCH_DIR that holds no LibTorch, and one of another version: one error line, status 1.
# Takes about 2 minutes on a 2-core machine (two short CPU trainings). Exit 0 when all pass.
set -euo pipefail
source "$(dirname "$0")/common.sh"

archive=""; build_dir=""; keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bundle) archive=$2; shift 2 ;;
    --build-dir) build_dir=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) echo "bundle_check.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" -eq 0 ] || { echo "bundle_check.sh: needs root for its mount namespace (unshare -m)" >&2; exit 1; }
torch_pkg=$("$HYDRA_VENV/bin/python" -c 'import importlib.util as u; print(u.find_spec("torch").submodule_search_locations[0])')

work=${keep:-$(mktemp -d /tmp/hydra-bundle-check.XXXXXX)}
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
if [ -z "$archive" ]; then
  archive=$("$HYDRA_ROOT/scripts/package.sh" --out "$work" ${build_dir:+--build-dir "$build_dir"})
fi
say "bundle: $archive ($(( $(stat -c %s "$archive") / 1024 )) KiB)"
tar -C "$work" -xzf "$archive"
bundle=$(find "$work" -maxdepth 1 -type d -name 'hydra-*-linux-x86_64' | head -1)
[ -n "$bundle" ] || { echo "bundle_check.sh: $archive holds no hydra-*-linux-x86_64 folder" >&2; exit 1; }

# The system copies of the bundled libraries, as the loader would find them.
hidden=()
for lib in "$bundle"/lib/*.so*; do
  name=$(basename "$lib")
  for d in /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /lib64 /usr/lib /usr/local/lib; do
    [ -e "$d/$name" ] && hidden+=("$(readlink -f "$d/$name")")
  done
done
mapfile -t hidden < <(printf '%s\n' "${hidden[@]}" | sort -u)
say "hiding ${#hidden[@]} system libraries and $HYDRA_ROOT"

export BUNDLE=$bundle WORK=$work TORCH_PKG=$torch_pkg VENV_BIN=$HYDRA_VENV/bin HIDE_ROOT=$HYDRA_ROOT
export HIDDEN="${hidden[*]}"
unshare -m --propagation private bash -euo pipefail -c '
  for f in $HIDDEN; do mount --bind /dev/null "$f"; done
  mount -t tmpfs none "$HIDE_ROOT"
  cd "$WORK"
  say() { printf "[bundle] %s\n" "$*"; }
  fail() { printf "[bundle] FAIL: %s\n" "$*"; exit 1; }
  base_path=$(printf "%s" "$PATH" | tr ":" "\n" | grep -v "^$VENV_BIN\$" | paste -sd:)
  export PATH=$base_path
  unset LD_LIBRARY_PATH HYDRA_TORCH_DIR

  # The hiding works: without the bundled libraries the executable cannot start.
  mkdir -p nolib && cp "$BUNDLE/hydra" nolib/
  if nolib/hydra --version > nolib.out 2>&1; then
    fail "hydra started without the bundled libraries: the system copies are not hidden"
  fi
  say "without lib/: $(head -1 nolib.out)"
  [ ! -e "$HIDE_ROOT/CMakeLists.txt" ] || fail "the checkout is still visible"

  hydra=$BUNDLE/hydra
  cfg=$BUNDLE/configs/quickstart.json
  run_route() {  # $1: name of the route, $2: the libtorch_from hydra info must name
    say "$1: $("$hydra" --version)"
    "$hydra" info > "info-$1.txt" || fail "$1: hydra info"
    grep -q "^libtorch_from *$2\$" "info-$1.txt" || { cat "info-$1.txt"; fail "$1: LibTorch not from $2"; }
    grep -q "^libtorch_loaded *false\$" "info-$1.txt" || { cat "info-$1.txt"; fail "$1: hydra info loaded LibTorch"; }
    "$hydra" info --torch > "info-torch-$1.txt" || fail "$1: hydra info --torch"
    grep -E "^(libtorch|libtorch_dir|libtorch_from|cuda_available) " "info-torch-$1.txt" | sed "s/^/[bundle] $1: /"
    "$hydra" train --config "$cfg" --max-updates 1 --device cpu --seed 1 --run-dir "run-$1" --set selfplay.games=2 \
      --set train.tensorboard=false > "train-$1.txt" 2>&1 || { cat "train-$1.txt"; fail "$1: hydra train"; }
    ckpt=$(sed -n "s/.*, checkpoint \(.*\)$/\1/p" "train-$1.txt")
    [ -f "$ckpt" ] || { cat "train-$1.txt"; fail "$1: hydra train wrote no checkpoint"; }
    say "$1: $(tail -1 "train-$1.txt")"
    "$hydra" eval --challenger "$ckpt" --champion bot:greedy --seeds 1 --seed 1 --threads 1 --device cpu --json \
      > "eval-$1.json" 2> "eval-$1.err" || { cat "eval-$1.err"; fail "$1: hydra eval"; }
    grep -q "\"games\": 4" "eval-$1.json" || { cat "eval-$1.json"; fail "$1: hydra eval did not play 4 games"; }
    say "$1: eval of $ckpt against bot:greedy: 4 games"
  }
  HYDRA_TORCH_DIR=$TORCH_PKG run_route env "HYDRA_TORCH_DIR"
  PATH=$VENV_BIN:$PATH run_route python "python3 on PATH"

  # A missing or different LibTorch: one error line and status 1.
  expect_error() {  # $1: what, then the command
    local what=$1; shift
    set +e; "$@" > err.out 2> err.txt; rc=$?; set -e
    [ "$rc" -eq 1 ] || { cat err.txt; fail "$what: status $rc, expected 1"; }
    [ "$(wc -l < err.txt)" -eq 1 ] || { cat err.txt; fail "$what: expected one error line"; }
    say "$what: $(cat err.txt)"
  }
  expect_error "no LibTorch" env HYDRA_TORCH_DIR=$WORK/nowhere "$hydra" train --config "$cfg" --max-updates 1
  mkdir -p fake/lib && : > fake/lib/libtorch_cpu.so
  printf "__version__ = '"'"'2.0.1+cpu'"'"'\n" > fake/version.py
  expect_error "other LibTorch" env HYDRA_TORCH_DIR=$WORK/fake "$hydra" info --torch
  say "all checks passed"
'
