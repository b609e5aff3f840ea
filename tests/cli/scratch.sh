# Sourced by the CLI test scripts that run hydra in the background: a scratch folder $dir removed
# at exit; the background process whose id the script keeps in $pid (none when empty) killed at
# exit, its children first (a launcher's ranks); fail MESSAGE names the script, shows the end of
# each $dir/*.out and exits 1.
dir=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ]; then
    pkill -9 -P "$pid" 2> /dev/null || true
    kill -9 "$pid" 2> /dev/null || true
  fi
  rm -rf "$dir"
}
trap cleanup EXIT
fail() {
  echo "$(basename "$0"): $*" >&2
  for f in "$dir"/*.out; do
    [ -f "$f" ] && { echo "--- $f" >&2; tail -20 "$f" >&2; }
  done
  exit 1
}
