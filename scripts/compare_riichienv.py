#!/usr/bin/env python3
"""Random-play engine speed: Hydra's `hydra bench engine` next to RiichiEnv, in one run.

Plays uniformly random legal hanchan in RiichiEnv (PyPI `riichienv`, game mode 4p-red-half,
mjai logging off; the agents are a Python `random.Random` choice over `legal_actions()`, as in
RiichiEnv's own RandomAgent) for a number of CPU seconds, then runs `hydra bench engine --json`
for the same CPU time, and prints both: hanchan per CPU second, decisions per hanchan and CPU
time per decision, one core each. RiichiEnv's number includes the Python side of its API (one
`step()` call per decision point and the observation objects it returns), which is how its users
drive it; Hydra's is the C++ table with its built-in random agent.

    scripts/compare_riichienv.py [--seconds S] [--hydra PATH] [--json]

The package is pinned and lives in its own virtual environment under ~/.cache/hydra/; the script
creates it on first use (pip, from PyPI) and re-runs itself inside it.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time

import pinned_venv

RIICHIENV_VERSION = "0.4.11"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ensure_venv():
    """Re-executes inside the pinned venv, creating it when needed (scripts/pinned_venv.py)."""
    pinned_venv.reexec_in_venv(__file__, "riichienv-venv", "riichienv", RIICHIENV_VERSION)


def riichienv_random(seconds, seed=2026):
    import riichienv

    rng = random.Random(seed)
    games = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        env = riichienv.RiichiEnv(game_mode="4p-red-half", skip_mjai_logging=True, seed=seed + games)
        obs = env.reset()
        while not env.done():
            actions = {p: rng.choice(o.legal_actions()) for p, o in obs.items()}
            decisions += len(actions)
            obs = env.step(actions)
        if sum(env.scores()) + 1000 * env.riichi_sticks != 100000:
            raise SystemExit(f"riichienv game {games}: scores {env.scores()} do not sum to 100,000")
        games += 1
    cpu = time.process_time() - start
    return {"engine": f"riichienv {RIICHIENV_VERSION}", "hanchan": games, "decisions": decisions, "cpu_s": cpu,
            "hanchan_per_cpu_second": games / cpu, "decisions_per_hanchan": decisions / games,
            "ns_per_decision": cpu * 1e9 / decisions}


def hydra_random(hydra, seconds):
    out = subprocess.run([hydra, "--log-level", "off", "bench", "engine", "--json", "--seconds", str(seconds)],
                         capture_output=True, text=True, check=True)
    j = json.loads(out.stdout)
    return {"engine": "hydra", "hanchan": j["hanchan"], "decisions": j["decisions"], "cpu_s": j["cpu_s"],
            "hanchan_per_cpu_second": j["hanchan_per_cpu_second"],
            "decisions_per_hanchan": j["decisions_per_hanchan"], "ns_per_decision": j["ns_per_decision"]}


def main():
    ensure_venv()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="CPU seconds per engine")
    ap.add_argument("--hydra", default=os.path.join(ROOT, "build", "apps", "hydra"))
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if not os.path.exists(a.hydra):
        raise SystemExit(f"compare_riichienv: {a.hydra} is missing: build first (scripts/build.sh)")
    rows = [hydra_random(a.hydra, a.seconds), riichienv_random(a.seconds)]
    if a.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'engine':18} {'hanchan':>8} {'hanchan/cpu s':>14} {'decisions/hanchan':>18} {'ns/decision':>12}")
    for r in rows:
        print(f"{r['engine']:18} {r['hanchan']:8d} {r['hanchan_per_cpu_second']:14.1f} "
              f"{r['decisions_per_hanchan']:18.1f} {r['ns_per_decision']:12.0f}")
    print(f"hydra / riichienv: {rows[0]['hanchan_per_cpu_second'] / rows[1]['hanchan_per_cpu_second']:.1f}x "
          "hanchan per CPU second (random legal play, one core each)")


if __name__ == "__main__":
    main()
