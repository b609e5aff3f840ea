#!/usr/bin/env bash
# Packs a relocatable hydra for machines without Debian's libraries (docs/BUILDING.md "Bundle").
#   scripts/package.sh --out DIR [--build-dir BUILD]
# Builds (scripts/build.sh) unless --build-dir names an existing build, then writes
# DIR/hydra-VERSION-linux-x86_64.tar.gz: the hydra and hydra-torch executables and every
# shared library they need from the system, found through $ORIGIN run paths; glibc, the C++
# runtime (libstdc++, libgcc_s) and LibTorch/CUDA stay outside (LibTorch is found at run time:
# HYDRA_TORCH_DIR, else the torch package of python3, else the build's own). Prints the archive.
set -euo pipefail
source "$(dirname "$0")/common.sh"

out=""; build_dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --build-dir) build_dir=$2; shift 2 ;;
    *) echo "package.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || { echo "package.sh: --out DIR is required" >&2; exit 2; }
command -v patchelf >/dev/null || { echo "package.sh: patchelf is missing (scripts/setup.sh installs it)" >&2; exit 1; }
if [ -z "$build_dir" ]; then
  build_dir=$("$HYDRA_ROOT/scripts/build.sh")
else
  [ -x "$build_dir/apps/hydra" ] || { echo "package.sh: $build_dir/apps/hydra: no hydra built there" >&2; exit 1; }
fi
build_dir=$(cd "$build_dir" && pwd)

version=$(sed -n 's/^project(hydra VERSION \([0-9.]*\).*/\1/p' "$HYDRA_ROOT/CMakeLists.txt")
name=hydra-$version-linux-x86_64
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/$name
mkdir -p "$root/lib"

# The programs of the bundle: hydra (no LibTorch) and hydra-torch, which hydra runs for the
# commands that need LibTorch (docs/ARCHITECTURE.md "LibTorch on demand").
programs=("$build_dir/apps/hydra" "$build_dir/apps/hydra-torch")
for prog in "${programs[@]}"; do
  [ -x "$prog" ] || { echo "package.sh: $prog: not built" >&2; exit 1; }
done

# A library is bundled when it resolves to a system folder and is not part of glibc or the C++
# runtime, which every Linux has (and must match the kernel and the loader). Anything else -
# LibTorch, CUDA, cuDNN, the torch wheel's own libgomp - comes from the chosen LibTorch folder.
system_lib() { case "$1" in /lib/*|/lib64/*|/usr/lib/*|/usr/lib64/*|/usr/local/lib/*) return 0 ;; esac; return 1; }
runtime_lib() {
  case "$(basename "$1")" in
    ld-linux*|libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|libutil.so*|libresolv.so*|\
    libstdc++.so*|libgcc_s.so*|libmvec.so*) return 0 ;;
  esac
  return 1
}
declare -A bundled=()
for prog in "${programs[@]}"; do
  while read -r lib path; do
    [ -n "$path" ] || continue
    system_lib "$path" || continue
    runtime_lib "$path" && continue
    bundled[$lib]=$(readlink -f "$path")
  done < <(ldd "$prog" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}')
done
for lib in "${!bundled[@]}"; do
  cp "${bundled[$lib]}" "$root/lib/$lib"
  chmod u+w "$root/lib/$lib"
  # Their own dependencies (spdlog -> fmt, ...) are bundled too: look beside themselves first.
  patchelf --set-rpath '$ORIGIN' "$root/lib/$lib"
done
for prog in "${programs[@]}"; do
  cp "$prog" "$root/"
  chmod u+w "$root/$(basename "$prog")"
  # The build's run path (the torch venv of this machine) must not leak into the bundle: hydra
  # puts the chosen LibTorch on hydra-torch's library path.
  patchelf --set-rpath '$ORIGIN/lib' "$root/$(basename "$prog")"
  strip --strip-unneeded "$root/$(basename "$prog")"
done
cp "$HYDRA_ROOT/README.md" "$root/"
mkdir -p "$root/configs"
cp "$HYDRA_ROOT"/configs/*.json "$root/configs/"

mkdir -p "$out"
archive=$(cd "$out" && pwd)/$name.tar.gz
tar -C "$stage" -czf "$archive" "$name"
size=$(stat -c %s "$archive")
limit=$((64 * 1024 * 1024))
libs=$(cd "$root/lib" && ls -- *.so* | tr "\n" " ")
say "bundle $archive: $(( size / 1024 )) KiB; bundled libraries: $libs" >&2
[ "$size" -le "$limit" ] || { echo "package.sh: $archive is $size bytes, over the 64 MiB a bundle may carry" >&2; exit 1; }
echo "$archive"
