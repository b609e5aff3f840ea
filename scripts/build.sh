#!/usr/bin/env bash
# Configures and builds Hydra with CMake + Ninja (+ ccache).
#   scripts/build.sh [--sanitize address|thread] [--debug] [--no-torch] [--build-dir DIR] [--target T]...
# Progress goes to stderr; stdout gets only the build directory (for scripts to capture).
# CI=true turns warnings into errors.
set -euo pipefail
source "$(dirname "$0")/common.sh"
exec 3>&1 1>&2  # fd 3: the real stdout, for the build directory only

sanitize=""; build_type=Release; with_torch=ON; build_dir=""; targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --sanitize) sanitize=$2; shift 2 ;;
    --debug) build_type=Debug; shift ;;
    --no-torch) with_torch=OFF; shift ;;
    --build-dir) build_dir=$2; shift 2 ;;
    --target) targets+=("$2"); shift 2 ;;  # only these targets (and what they need); default all
    *) echo "build.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
if [ -z "$build_dir" ]; then
  build_dir=$HYDRA_ROOT/build
  [ -n "$sanitize" ] && build_dir=$HYDRA_ROOT/build-$sanitize
  [ "$build_type" = Debug ] && [ -z "$sanitize" ] && build_dir=$HYDRA_ROOT/build-debug
fi
[ -n "$sanitize" ] && build_type=RelWithDebInfo

werror=OFF; [ "${CI:-}" = true ] && werror=ON
args=(-G Ninja -S "$HYDRA_ROOT" -B "$build_dir" -DCMAKE_BUILD_TYPE=$build_type
      -DHYDRA_SANITIZE=$sanitize -DHYDRA_WITH_TORCH=$with_torch -DHYDRA_WERROR=$werror)
# Benchmarks measure nothing under a sanitizer, and CTest never runs them: the release build
# compiles them.
[ -n "$sanitize" ] && args+=(-DHYDRA_BUILD_BENCHMARKS=OFF)
if [ "$with_torch" = ON ]; then
  prefix=$("$HYDRA_VENV/bin/python" -W ignore -c 'import torch.utils; print(torch.utils.cmake_prefix_path)')
  args+=(-DCMAKE_PREFIX_PATH="$prefix" -DPython3_EXECUTABLE="$HYDRA_VENV/bin/python")
fi
say "configuring $build_dir ($build_type${sanitize:+, $sanitize sanitizer}, torch $with_torch, werror $werror)"
mkdir -p "$build_dir"
cmake "${args[@]}" > "$build_dir/configure.log" 2>&1 || { cat "$build_dir/configure.log"; exit 1; }
say "building ${targets[*]:-everything} with $(jobs_default) jobs"
built_from=$(date +%s)
cmake --build "$build_dir" -j "$(jobs_default)" ${targets[@]:+--target "${targets[@]}"}
say "built $build_dir in $(( $(date +%s) - built_from )) s"
echo "$build_dir" >&3
