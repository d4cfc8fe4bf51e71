#!/usr/bin/env python3
"""T9's grid in instruction counts: `Mlp` on one thread against the hand-written gradient.

For every cell of `benches/tasks/grid.rs::cells` (or the shapes given), counts one warmed call
of each contender under callgrind (`count_calls t9-hand:SHAPE:POINTS 2`, the instructions of every thread
while `t9_measured` runs) and prints the ratio `Mlp / hand`, a table per activation and the worst and best
cells. Build first: `cargo build --release --example count_calls`.

    python3 benches/grid.py [--points 512] [--jobs 2] [--binary PATH] [SHAPE ...]
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import tempfile

ACTIVATIONS = ["relu", "tanh", "sigmoid", "linear"]
DEPTHS = [1, 2, 4]
WIDTHS = [4, 16, 64, 128]
INPUTS = [1, 2, 8, 64]


def cells(activations):
    return [
        f"{a}-{i}{f'-{w}' * d}-1"
        for a in activations
        for d in DEPTHS
        for w in WIDTHS
        for i in INPUTS
    ]


def count(binary, contender, shape, points):
    """Instructions of the second call, every thread's: callgrind dumps its counts on entering
    and on leaving `t9_measured`, so the second dump holds that call alone."""
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--dump-before=*t9_measured*",
                "--dump-after=*t9_measured*",
                f"--callgrind-out-file={out}/cg.out",
                binary,
                f"{contender}:{shape}:{points}",
                "2",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        text = open(f"{out}/cg.out.2").read()
    return int(re.search(r"^totals: (\d+)", text, re.M).group(1))


def cell(binary, shape, points):
    hand = count(binary, "t9-hand", shape, points)
    mlp = count(binary, "t9-mlp", shape, points)
    return shape, hand, mlp


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--points", type=int, default=512)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--binary", default="target/release/examples/count_calls")
    parser.add_argument("--activations", default=",".join(ACTIVATIONS))
    parser.add_argument("shapes", nargs="*")
    args = parser.parse_args()
    shapes = args.shapes or cells(args.activations.split(","))
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        runs = pool.map(lambda s: cell(args.binary, s, args.points), shapes)
        results = {}
        for shape, hand, mlp in runs:
            results[shape] = (hand, mlp)
            print(f"{shape}\t{hand / args.points:.0f}\t{mlp / args.points:.0f}\t{mlp / hand:.3f}", flush=True)
    print(f"\n`Mlp` / hand-written, instructions, {args.points} points")
    for a in ACTIVATIONS:
        if not any(s.startswith(a + "-") for s in results):
            continue
        print(f"\n{a}: hidden layers x width, then inputs")
        print("| layers x width | " + " | ".join(f"{i} in" for i in INPUTS) + " |")
        print("| --- |" + " ---: |" * len(INPUTS))
        for d in DEPTHS:
            for w in WIDTHS:
                row = []
                for i in INPUTS:
                    r = results.get(f"{a}-{i}{f'-{w}' * d}-1")
                    row.append(f"{r[1] / r[0]:.2f}" if r else "")
                print(f"| {d} x {w} | " + " | ".join(row) + " |")
    ranked = sorted(results.items(), key=lambda kv: kv[1][1] / kv[1][0])
    print("\nbest:  " + ", ".join(f"{s} {m / h:.3f}x" for s, (h, m) in ranked[:5]))
    print("worst: " + ", ".join(f"{s} {m / h:.3f}x" for s, (h, m) in ranked[::-1][:5]))


if __name__ == "__main__":
    os.environ.setdefault("RAYON_NUM_THREADS", "1")
    main()
