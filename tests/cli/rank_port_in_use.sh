#!/usr/bin/env bash
# rank_port_in_use.sh HYDRA: rank 0 of a data-parallel train or pretrain whose MASTER_PORT another
# process already listens on fails at once with one error line naming the port (docs/DISTRIBUTED.md
# "Faults"), before any step and without writing into its run directory.
set -eu
hydra=$1
dir=$(mktemp -d)
holder=
cleanup() {
  if [ -n "$holder" ]; then kill "$holder" 2> /dev/null || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "rank_port_in_use.sh: $*" >&2; exit 1; }
# Another process holds a port (the kernel's choice) and says which.
python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
print(s.getsockname()[1], flush=True)
time.sleep(600)' > "$dir/port" &
holder=$!
for _ in $(seq 1 600); do [ -s "$dir/port" ] && break; sleep 0.1; done
port=$(cat "$dir/port")
[ -n "$port" ] || fail "no port held"
for cmd in train pretrain; do
  extra=(); [ "$cmd" = pretrain ] && extra=(--data "$dir/no-logs")
  rc=0
  env RANK=0 WORLD_SIZE=2 LOCAL_RANK=0 LOCAL_WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT="$port" \
    timeout 300 "$hydra" "$cmd" --device cpu --set run.dist_timeout=30 "${extra[@]}" --run-dir "$dir/$cmd" \
    > "$dir/$cmd.out" 2>&1 || rc=$?
  cat "$dir/$cmd.out"
  [ "$rc" -eq 1 ] || fail "$cmd: exit code $rc, wanted 1"
  grep -q "hydra: error: distributed: rank 0 of 2 could not join the group at 127.0.0.1:$port: MASTER_PORT $port is already in use by another process" "$dir/$cmd.out" ||
    fail "$cmd: no error naming the port"
  [ "$(wc -l < "$dir/$cmd.out")" -eq 1 ] || fail "$cmd: more than one line (a stack trace?)"
  [ ! -e "$dir/$cmd" ] || fail "$cmd: wrote its run directory"
done
echo "rank_port_in_use.sh: train and pretrain refuse MASTER_PORT $port (in use) with one line"
