#!/usr/bin/env python3
"""Forward + backward samples/s of the SE-ResNet in Python PyTorch, beside the C++ benchmark.

Runs the reference module of scripts/model_reference.py with the same loss, batch sizes and
thread count as tests/bench/bench_model.cpp; with --cpp it also runs that program and prints
the ratio C++ / Python per config. The two alternate for --rounds rounds and the best round of
each is reported: on a shared machine, other load only ever slows a round down.

    python scripts/bench_model.py --threads 2 --cpp build/bench/bench_model
"""
import argparse
import json
import os
import subprocess
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_reference import ACTIONS, OBS_CHANNELS, OPPONENTS, RANK_PERMS, SCORE_CONTEXT, TILES, HydraNet, total_loss  # noqa: E402

CONFIGS = {"small_4x64": (4, 64), "default_40x256": (40, 256)}


def bench(blocks, channels, batch, device, bf16, min_time):
    torch.manual_seed(1)
    net = HydraNet(blocks=blocks, channels=channels).to(device)
    obs = torch.bernoulli(torch.full((batch, OBS_CHANNELS, TILES), 0.3, device=device))
    ctx = torch.rand(batch, SCORE_CONTEXT, device=device)
    legal = torch.rand(batch, ACTIONS, device=device) < 0.4
    legal[:, 0] = True
    action = torch.zeros(batch, dtype=torch.long, device=device)
    value = torch.randn(batch, device=device)
    grp = torch.randint(RANK_PERMS, (batch,), device=device)
    tenpai = torch.bernoulli(torch.full((batch, OPPONENTS), 0.3, device=device))
    danger = torch.bernoulli(torch.full((batch, OPPONENTS, TILES), 0.1, device=device))

    def step():
        net.zero_grad(set_to_none=False)
        with torch.autocast(device_type=device, dtype=torch.bfloat16, enabled=bf16):
            out = net(obs, ctx)
        out = tuple(o.float() for o in out)
        total_loss(out, legal, action, value, grp, tenpai, danger).backward()
        if device == "cuda":
            torch.cuda.synchronize()

    step()  # warm-up
    n, start = 0, time.perf_counter()
    while True:
        step()
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return n * batch / elapsed


def run_cpp(binary, args):
    cmd = [binary, f"--device={args.device}", f"--threads={args.threads}", f"--batch-small={args.batch_small}",
           f"--batch-default={args.batch_default}", f"--benchmark_min_time={args.min_time:g}",
           "--benchmark_format=json"] + (["--bf16"] if args.bf16 else [])
    report = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    return {b["name"].split("/")[1]: b["items_per_second"] for b in report["benchmarks"]}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    p.add_argument("--bf16", action="store_true")
    p.add_argument("--threads", type=int, default=torch.get_num_threads())
    p.add_argument("--batch-small", type=int, default=256)
    p.add_argument("--batch-default", type=int, default=0, help="0: 32 on CPU, 2048 on CUDA")
    p.add_argument("--min-time", type=float, default=5.0, help="seconds per measurement")
    p.add_argument("--cpp", help="path of the C++ bench_model program to run beside")
    p.add_argument("--rounds", type=int, default=3, help="alternating rounds; the best of each side is kept")
    args = p.parse_args()
    if args.batch_default == 0:
        args.batch_default = 2048 if args.device == "cuda" else 32
    torch.set_num_threads(args.threads)
    batches = {"small_4x64": args.batch_small, "default_40x256": args.batch_default}
    best_py, best_cpp = {}, {}
    for _ in range(args.rounds):
        for name, value in (run_cpp(args.cpp, args) if args.cpp else {}).items():
            best_cpp[name] = max(best_cpp.get(name, 0.0), value)
        for name, (blocks, channels) in CONFIGS.items():
            py = bench(blocks, channels, batches[name], args.device, args.bf16, args.min_time)
            best_py[name] = max(best_py.get(name, 0.0), py)
    print(f"torch {torch.__version__}, device {args.device}, {'bf16 autocast' if args.bf16 else 'fp32'}, "
          f"{args.threads} threads, best of {args.rounds} rounds; forward+backward samples/s")
    print(f"{'config':16s} {'batch':>6s} {'python':>10s} {'c++':>10s} {'c++/python':>11s}")
    for name in CONFIGS:
        py, c = best_py[name], best_cpp.get(name)
        print(f"{name:16s} {batches[name]:6d} {py:10.1f} " +
              (f"{c:10.1f} {c / py:11.3f}" if c else f"{'-':>10s} {'-':>11s}"))


if __name__ == "__main__":
    main()
