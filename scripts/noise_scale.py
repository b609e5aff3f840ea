#!/usr/bin/env python3
"""The gradient noise scale of a `hydra train` run (docs/PPO.md "Gradient noise scale").

    scripts/noise_scale.py RUN_DIR/metrics.jsonl [--from-update U]

Reads the updates that measured it (`ppo.noise_batch` > 0: the metrics ppo/grad_signal, an
unbiased estimate of |G|^2, and ppo/grad_noise, of tr(Sigma) per decision) from update U on, and
prints B_noise = mean(grad_noise) / mean(grad_signal): the decisions per update at which a
policy-gradient estimate is half signal, half noise (chunks of whole games, so the four zero-sum
seats of a game never sit in different chunks). The 95% interval is a bootstrap over updates
(2,000 resamples, fixed seed: the same file gives the same numbers). Also prints the share of
signal in the squared gradient of the run's own updates, 1 / (1 + B_noise / B), and the run's
decisions in units of B_noise (how many signal-dominated steps the samples could have paid for).
Standard library only.
"""

import json
import random
import sys


def ratio(rows):
    signal = sum(r[0] for r in rows)
    return sum(r[1] for r in rows) / signal if signal > 0 else float("inf")


def main():
    args = sys.argv[1:]
    first = 0
    if "--from-update" in args:
        i = args.index("--from-update")
        first = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 1:
        sys.exit(__doc__)
    rows, halves, cosines, samples, total = [], [], [], [], 0
    with open(args[0]) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                sys.exit(f"{args[0]}:{n}: not JSON ({e.msg})")
            total += rec.get("ppo/samples", 0)
            if "ppo/grad_noise" not in rec or rec.get("step", 0) < first:
                continue
            rows.append((rec["ppo/grad_signal"], rec["ppo/grad_noise"]))
            if "ppo/grad_signal_halves" in rec:
                halves.append((rec["ppo/grad_signal_halves"], rec["ppo/grad_noise"]))
                cosines.append(rec["ppo/grad_cos_halves"])
            samples.append(rec.get("ppo/samples", 0))
    if len(rows) < 2:
        sys.exit(f"{args[0]}: {len(rows)} updates measured the noise scale: run with --set ppo.noise_batch=256")
    b_noise = ratio(rows)
    rng = random.Random(2026)
    boot = sorted(ratio([rng.choice(rows) for _ in rows]) for _ in range(2000))
    lo, hi = boot[50], boot[1949]
    per_update = sum(samples) / len(samples)
    print(f"updates measured: {len(rows)}, decisions per update {per_update:,.0f}")
    print(f"mean |G|^2 {sum(r[0] for r in rows) / len(rows):.4g}, mean tr(Sigma) {sum(r[1] for r in rows) / len(rows):.4g}")
    print(f"B_noise = {b_noise:,.0f} decisions (95% bootstrap interval [{lo:,.0f}, {hi:,.0f}])")
    print(f"signal share of one update's squared gradient: {1 / (1 + b_noise / per_update):.3f}")
    print(f"the run's {total:,.0f} learner decisions = {total / b_noise:.1f} x B_noise")
    if len(halves) >= 2:
        # Cross-check: |G|^2 as the dot product of two halves of different games.
        b_halves = ratio(halves)
        boot = sorted(ratio([rng.choice(halves) for _ in halves]) for _ in range(2000))
        print(f"cross-check, |G|^2 from two halves of different games: B_noise = {b_halves:,.0f} "
              f"[{boot[50]:,.0f}, {boot[1949]:,.0f}]; mean cosine of the halves' gradients "
              f"{sum(cosines) / len(cosines):+.4f}")


if __name__ == "__main__":
    main()
