#!/usr/bin/env python3
"""Paired difference of two `hydra eval --json` reports that share their --seed.

Two duplicates with the same master seed play the same walls, seed by seed, so the difference of
their challengers' average ranks can be taken per wall seed: most of the luck of a wall cancels,
and the interval is far narrower than the two reports' intervals side by side.

    python3 scripts/paired_eval.py A.json B.json [--label TEXT] [--json]

prints the mean over the seeds both reports scored of (A's challenger average rank - B's), with
the 95% interval of that mean (normal approximation, standard error of the per-seed
differences). Negative: A's challenger ranks better.
"""
import argparse
import json
import math
import sys


def per_seed(path):
    with open(path) as f:
        report = json.load(f)
    if "per_seed" not in report:
        sys.exit(f"{path}: no 'per_seed' field (written by an older hydra eval?)")
    seeds = report["per_seed"]["seed"]
    ranks = report["per_seed"]["challenger_avg_rank"]
    return report, dict(zip(seeds, ranks))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--label", default="A - B")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    args = p.parse_args()
    ra, a = per_seed(args.a)
    rb, b = per_seed(args.b)
    if ra.get("seed") != rb.get("seed"):
        sys.exit(f"the reports have different master seeds ({ra.get('seed')} and {rb.get('seed')}): "
                 "they did not play the same walls")
    common = sorted(set(a) & set(b))
    if len(common) < 2:
        sys.exit(f"only {len(common)} seeds scored in both reports: nothing to pair")
    d = [a[s] - b[s] for s in common]
    n = len(d)
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    out = {"label": args.label, "seeds": n, "difference": mean, "ci95": [mean - half, mean + half]}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{args.label:<34} {mean:+.3f}  95% CI [{mean - half:+.3f}, {mean + half:+.3f}]  "
              f"(paired by seed, {n} seeds)")


if __name__ == "__main__":
    main()
