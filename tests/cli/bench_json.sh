#!/usr/bin/env bash
# bench_json.sh HYDRA: `hydra bench engine --json` and `hydra bench encoder --json` print one JSON
# object with every documented key, counts and times positive, and the derived rates consistent
# with them (speed itself is measured, never asserted).
set -eu
hydra=$1
engine=$("$hydra" bench engine --json --seconds 0.05)
encoder=$("$hydra" bench encoder --json --seconds 0.05)
python3 - "$engine" "$encoder" <<'PY'
import json, math, sys
engine, encoder = json.loads(sys.argv[1]), json.loads(sys.argv[2])

def positive(obj, keys, where):
    for k in keys:
        v = obj[k]  # KeyError names a missing key
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not v > 0:
            sys.exit(f"{where}: {k} = {v!r} is not a positive number")

assert engine["bench"] == "engine" and engine["threads"] == 1, engine
positive(engine, ["hanchan", "kyoku", "decisions", "cpu_s", "wall_s", "hanchan_per_cpu_second",
                  "hanchan_per_wall_second", "ns_per_decision", "decisions_per_hanchan"], "engine")
assert engine["kyoku"] >= engine["hanchan"], engine
assert math.isclose(engine["hanchan_per_cpu_second"], engine["hanchan"] / engine["cpu_s"], rel_tol=1e-9), engine
assert math.isclose(engine["ns_per_decision"], engine["cpu_s"] * 1e9 / engine["decisions"], rel_tol=1e-9), engine

assert encoder["bench"] == "encoder" and encoder["threads"] == 1 and encoder["channels"] == 85, encoder
for part in ("full", "incremental_after_discard"):
    positive(encoder[part], ["observations", "cpu_s", "wall_s", "ns_per_observation"], part)
positive(encoder, ["full_over_incremental"], "encoder")
ratio = encoder["full"]["ns_per_observation"] / encoder["incremental_after_discard"]["ns_per_observation"]
assert math.isclose(encoder["full_over_incremental"], ratio, rel_tol=1e-9), encoder
print("bench_json.sh: engine and encoder JSON complete")
PY
