#!/bin/sh
# `hydra` of a bundle (scripts/package.sh): finds LibTorch, then runs bin/hydra with it.
# LibTorch comes from HYDRA_TORCH_DIR (a torch package folder or a LibTorch distribution, either
# holding lib/libtorch_cpu.so), else the torch package of the python3 on PATH, else the folder
# the bundle was built against. A missing or different LibTorch is one error line and status 1.
here=$(dirname "$(readlink -f "$0")")
want=$(cat "$here/lib/TORCH_VERSION")
fail() { echo "hydra: error: $*" >&2; exit 1; }
if [ -n "${HYDRA_TORCH_DIR:-}" ]; then
  dir=$HYDRA_TORCH_DIR; from="HYDRA_TORCH_DIR"
else
  # find_spec locates the package without importing it (importing torch takes seconds).
  dir=$(python3 -c 'import importlib.util as u; s = u.find_spec("torch"); print(s.submodule_search_locations[0] if s else "")' 2>/dev/null || true)
  from="the torch package of $(command -v python3 2>/dev/null || echo python3)"
  if [ -z "$dir" ]; then
    dir=$(cat "$here/lib/TORCH_BUILD_DIR"); from="the build's LibTorch"
    [ -d "$dir" ] || fail "no LibTorch found: set HYDRA_TORCH_DIR to a torch $want package folder, or install torch==$want for python3"
  fi
fi
libdir=$dir/lib
[ -f "$libdir/libtorch_cpu.so" ] || fail "$dir ($from): no LibTorch there (no lib/libtorch_cpu.so); hydra needs torch $want"
if [ -f "$dir/version.py" ]; then
  have=$(sed -n "s/^__version__ = '\(.*\)'.*/\1/p" "$dir/version.py")
elif [ -f "$dir/build-version" ]; then
  have=$(cat "$dir/build-version")
else
  have=unknown
fi
[ "${have%%+*}" = "${want%%+*}" ] || fail "$dir ($from): LibTorch $have, but this hydra was built with $want"
LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec "$here/bin/hydra" "$@"
