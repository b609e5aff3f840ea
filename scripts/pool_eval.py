#!/usr/bin/env python3
"""Pool the parts of one `hydra eval` duplicate played in parts (`--first-seed`).

A long evaluation (a search agent: hours for 200 seeds on two cores) runs in parts whose seeds
are those of the whole run: `hydra eval ... --seed S --first-seed 0 --seeds 50 --json > a.json`,
then `--first-seed 50`, and so on. The challenger's average rank of the pooled seeds, with its
95% interval clustered by seed, is the one the whole run would report (the same per-seed ranks,
the same estimator: the mean of the per-seed average ranks, its standard error from their
spread).

    python3 scripts/pool_eval.py A.json B.json ... [--json] [--out POOLED.json]

The parts must share the challenger, the champion, the rules and the master seed, and no seed may
be in two parts. `--out` writes a report with the pooled `per_seed` that scripts/paired_eval.py
pairs with another duplicate on the same master seed.
"""
import argparse
import json
import math
import sys

SAME = ("challenger", "champion", "rules", "seed")


def load(path):
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        sys.exit(f"{path}: not a readable hydra eval --json report: {e}")
    for field in SAME + ("per_seed",):
        if field not in report:
            sys.exit(f"{path}: no '{field}' field (not a hydra eval --json report, or an older one)")
    seeds, ranks = report["per_seed"].get("seed"), report["per_seed"].get("challenger_avg_rank")
    if not isinstance(seeds, list) or not isinstance(ranks, list) or len(seeds) != len(ranks):
        sys.exit(f"{path}: field 'per_seed': 'seed' and 'challenger_avg_rank' must be lists of one length")
    return report, seeds, ranks


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("parts", nargs="+", metavar="PART.json")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--out", help="write the pooled report (per_seed and the average rank) to this file")
    args = p.parse_args()
    first, pooled = None, {}
    for path in args.parts:
        report, seeds, ranks = load(path)
        if first is None:
            first = (path, report)
        for field in SAME:
            if report[field] != first[1][field]:
                sys.exit(f"{path}: field '{field}' is {report[field]!r}, but {first[0]} has {first[1][field]!r}: "
                         "not parts of one evaluation")
        for s, r in zip(seeds, ranks):
            if s in pooled:
                sys.exit(f"{path}: seed {s} is also in another part: the parts overlap")
            pooled[s] = r
    n = len(pooled)
    if n < 2:
        sys.exit(f"only {n} seed(s) in the parts: no interval")
    order = sorted(pooled)
    mean = sum(pooled[s] for s in order) / n
    se = math.sqrt(sum((pooled[s] - mean) ** 2 for s in order) / (n * (n - 1)))
    out = {"challenger": first[1]["challenger"], "champion": first[1]["champion"], "rules": first[1]["rules"],
           "seed": first[1]["seed"], "parts": len(args.parts), "seeds_played": n,
           "avg_rank": {"value": mean, "ci95": [mean - 1.96 * se, mean + 1.96 * se]}}
    if args.out:
        with open(args.out, "w") as f:
            json.dump({**out, "per_seed": {"seed": order, "challenger_avg_rank": [pooled[s] for s in order]}}, f)
            f.write("\n")
    if args.json:
        print(json.dumps(out))
    else:
        lo, hi = out["avg_rank"]["ci95"]
        print(f"{out['challenger']} against {out['champion']}: average rank {mean:.3f} [{lo:.3f}, {hi:.3f}] "
              f"over {n} seeds from {len(args.parts)} part(s)")


if __name__ == "__main__":
    main()
