#!/usr/bin/env python3
"""Learning-curve PNG from a `hydra train` metrics.jsonl (docs/TRAINING.md "Learning check").

    scripts/plot_learning.py RUN_DIR/metrics.jsonl OUT.png [--window 10]

Runs inside a pinned virtual environment with matplotlib (scripts/pinned_venv.py). Panels: the
learner's average rank against its baseline (per update and as a game-weighted moving average;
2.5 is par), policy entropy, approx-KL and clip fraction, explained variance.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pinned_venv import reexec_in_venv  # noqa: E402

MATPLOTLIB = "3.11.2"


def moving(points, window):
    """Game-weighted moving average over the last `window` (step, value, weight) points."""
    out = []
    for i in range(len(points)):
        part = points[max(0, i - window + 1):i + 1]
        w = sum(p[2] for p in part)
        out.append((points[i][0], sum(p[1] * p[2] for p in part) / w if w > 0 else float("nan")))
    return out


def main():
    reexec_in_venv(__file__, "matplotlib-venv", "matplotlib", MATPLOTLIB)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    window = 10
    if "--window" in sys.argv:
        window = int(sys.argv[sys.argv.index("--window") + 1])
        args = [a for a in args if a != str(window)]
    if len(args) != 2:
        sys.exit("usage: plot_learning.py METRICS.jsonl OUT.png [--window N]")
    records = [json.loads(line) for line in open(args[0]) if line.strip()]
    if not records:
        sys.exit(f"{args[0]}: no records")

    def series(tag):
        return [(r["step"], r[tag]) for r in records if tag in r]

    rank = [(r["step"], r["rank/vs_baseline"], r.get("rank/vs_baseline_games", 1)) for r in records
            if "rank/vs_baseline" in r]
    fig, ax = plt.subplots(4, 1, figsize=(8, 11), sharex=True)
    if rank:
        ax[0].plot([p[0] for p in rank], [p[1] for p in rank], ".", alpha=0.35, label="per update")
        avg = moving(rank, window)
        ax[0].plot([p[0] for p in avg], [p[1] for p in avg], "-", label=f"moving average ({window} updates)")
    ax[0].axhline(2.5, color="grey", linestyle="--", label="par")
    ax[0].set_ylabel("rank vs baseline (1-4)")
    ax[0].invert_yaxis()
    ax[0].legend(loc="best")
    for tag, label in (("loss/entropy", "entropy (nats)"), ("loss/kl_anchor", "KL to the anchor")):
        s = series(tag)
        if s:
            ax[1].plot([p[0] for p in s], [p[1] for p in s], label=label)
    ax[1].legend(loc="best")
    for tag in ("ppo/approx_kl", "ppo/clip_fraction"):
        s = series(tag)
        if s:
            ax[2].plot([p[0] for p in s], [p[1] for p in s], label=tag)
    ax[2].legend(loc="best")
    s = series("ppo/explained_variance")
    if s:
        ax[3].plot([p[0] for p in s], [p[1] for p in s], label="explained variance")
    ax[3].axhline(0, color="grey", linestyle="--")
    ax[3].set_xlabel("update")
    ax[3].legend(loc="best")
    fig.tight_layout()
    fig.savefig(args[1], dpi=100)
    print(f"wrote {args[1]} ({len(records)} updates)")


if __name__ == "__main__":
    main()
