#!/usr/bin/env bash
# Packs a relocatable hydra for machines without Debian's libraries (docs/BUILDING.md "Bundle").
#   scripts/package.sh --out DIR [--build-dir BUILD]
# Builds (scripts/build.sh) unless --build-dir names an existing build, then writes
# DIR/hydra-VERSION-linux-x86_64.tar.gz: the hydra executable, its LibTorch module and every
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

# The programs of the bundle: the executable and, where the build has one, the LibTorch module.
programs=("$build_dir/apps/hydra")
[ -f "$build_dir/apps/libhydra_torch.so" ] && programs+=("$build_dir/apps/libhydra_torch.so")

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
# The executable links LibTorch, so the loader must find it before main(): bin/hydra is started
# by the launcher scripts/hydra_launcher.sh (as `hydra`), which resolves the LibTorch folder.
mkdir -p "$root/bin"
for prog in "${programs[@]}"; do
  cp "$prog" "$root/bin/"
  chmod u+w "$root/bin/$(basename "$prog")"
  # The build's run path (the torch venv of this machine) must not leak into the bundle.
  patchelf --set-rpath '$ORIGIN/../lib' "$root/bin/$(basename "$prog")"
  strip --strip-unneeded "$root/bin/$(basename "$prog")"
done
install -m 755 "$HYDRA_ROOT/scripts/hydra_launcher.sh" "$root/hydra"
# What the launcher checks a LibTorch folder against: the version this build compiled with
# (the torch package beside the build's Torch CMake config).
torch_cmake=$(sed -n 's/^Torch_DIR:PATH=//p' "$build_dir/CMakeCache.txt")
torch_pkg=$(cd "$torch_cmake/../../.." && pwd)
sed -n "s/^__version__ = '\(.*\)'.*/\1/p" "$torch_pkg/version.py" > "$root/lib/TORCH_VERSION"
echo "$torch_pkg" > "$root/lib/TORCH_BUILD_DIR"
[ -s "$root/lib/TORCH_VERSION" ] || { echo "package.sh: no torch version in $torch_pkg/version.py" >&2; exit 1; }
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
