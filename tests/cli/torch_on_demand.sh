#!/usr/bin/env bash
# torch_on_demand.sh HYDRA: commands that need no network run without LibTorch mapped into the
# process (HYDRA_DEBUG_LOADED=1 makes hydra say, from /proc/self/maps, whether libtorch_cpu.so
# is), a command that needs it does map it, and a LibTorch that is missing or of another version
# is one error line and status 1 (docs/ARCHITECTURE.md "LibTorch on demand").
set -u
hydra=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "torch_on_demand.sh: $*" >&2; cat "$dir/err" >&2; exit 1; }
export HYDRA_DEBUG_LOADED=1
without() {  # the command must pass and report no LibTorch
  "$@" < "$dir/in" > "$dir/out" 2> "$dir/err" || fail "'$*' failed"
  grep -q "^hydra: libtorch loaded: no$" "$dir/err" || fail "'$*' loaded LibTorch"
  echo "without LibTorch: $*"
}
: > "$dir/in"
without "$hydra" --version
without "$hydra" info
without "$hydra" config show
without "$hydra" hand 123m456p789s1122z --win 2z --tsumo
without "$hydra" bench engine --seconds 0.01
without "$hydra" bench encoder --seconds 0.01
without "$hydra" selfplay --agents bot:greedy,bot:random,bot:tsumogiri,bot:greedy --games 1 --seed 1 --out "$dir/sp"
without "$hydra" eval --challenger bot:greedy --champion bot:random --seeds 1 --seed 1 --threads 1
echo '{"type":"start_game","id":0,"names":["a","b","c","d"]}' > "$dir/in"
without "$hydra" bot --model bot:greedy
grep -q '"type":"none"' "$dir/out" || fail "hydra bot did not answer"
: > "$dir/in"

# The check can see LibTorch: info --torch loads it.
"$hydra" info --torch > "$dir/out" 2> "$dir/err" || fail "info --torch failed"
grep -q "^hydra: libtorch loaded: /.*libtorch_cpu.so$" "$dir/err" || fail "info --torch did not load LibTorch"
grep -q "^cuda_available " "$dir/out" || fail "info --torch printed no cuda_available"
echo "with LibTorch: info --torch"

unset HYDRA_DEBUG_LOADED
one_error() {  # $1: pattern of the error line, then the command
  local pattern=$1; shift
  "$@" > "$dir/out" 2> "$dir/err"
  local rc=$?
  [ "$rc" -eq 1 ] || fail "'$*': exit code $rc, wanted 1"
  [ "$(wc -l < "$dir/err")" -eq 1 ] || fail "'$*': wanted one error line"
  grep -Eq -- "$pattern" "$dir/err" || fail "'$*': error does not match /$pattern/"
  echo "one error line: $(cat "$dir/err")"
}
one_error "^hydra: error: $dir/none \\(HYDRA_TORCH_DIR\\): no LibTorch there" \
  env HYDRA_TORCH_DIR="$dir/none" "$hydra" train --device cpu --max-updates 1 --run-dir "$dir/run"
mkdir -p "$dir/old/lib" && : > "$dir/old/lib/libtorch_cpu.so"
echo "__version__ = '1.13.1+cpu'" > "$dir/old/version.py"
one_error "^hydra: error: $dir/old \\(HYDRA_TORCH_DIR\\): LibTorch 1.13.1\\+cpu, but this hydra was built with [0-9.]+" \
  env HYDRA_TORCH_DIR="$dir/old" "$hydra" info --model x.json
[ ! -e "$dir/run" ] || fail "train wrote its run directory before LibTorch was found"
exit 0
