#!/usr/bin/env python3
"""Prints BENCHMARKS.md's tables from criterion's results of `cargo bench --bench gradients`.

    python3 benches/summarize.py [CRITERION_DIR]   # default: $CARGO_TARGET_DIR/criterion

Reads each benchmark's median (new/estimates.json) and prints, per task, the median and the
ratio to the hand-written gradient, and for T4 how each contender grows with n.
"""
import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.environ.get("CARGO_TARGET_DIR", "target"), "criterion")


def median(*parts):
    path = os.path.join(root, *parts, "new", "estimates.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)["median"]["point_estimate"]


def fmt(ns):
    if ns is None:
        return "—"
    for unit, scale in (("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def table(title, rows):
    hand = dict(rows)["hand"]
    print(f"\n{title}\n")
    print("| contender | median | / hand-written |")
    print("|---|---:|---:|")
    for name, ns in rows:
        ratio = f"{ns / hand:.2f}x" if ns is not None else "—"
        print(f"| {name} | {fmt(ns)} | {ratio} |")


peers = ["f", "hand", "generated", "reverse", "num-dual", "Value"]
table("T1 readme", [(c, median("T1_readme", c)) for c in peers])
table("T2 neuron64", [(c, median("T2_neuron64", c)) for c in peers])
t3 = [(c, median("T3_moons", c)) for c in ["f", "hand", "hand-dense", "generated", "Mlp", "reverse"]]
t3 += [(c, median("T3_moons_slow", c)) for c in ["num-dual", "Value"]]
table("T3 moons-step", t3)

sizes = [10, 100, 1000, 10000]
group = {"f": "T4_scaling", "hand": "T4_scaling", "generated": "T4_scaling",
         "reverse": "T4_scaling", "Value": "T4_scaling_slow", "num-dual": "T4_scaling_slow"}
t4 = {c: [median(g, c, str(n)) for n in sizes] for c, g in group.items()}
print("\nT4 scaling: median (ratio to hand-written)\n")
print("| contender | " + " | ".join(f"n = {n}" for n in sizes) + " | growth 1000 → 10000 |")
print("|---|" + "---:|" * (len(sizes) + 1))
for c, times in t4.items():
    cells = []
    for ns, hand in zip(times, t4["hand"]):
        cells.append(f"{fmt(ns)} ({ns / hand:.2f}x)" if ns is not None else "skipped")
    a, b = times[2], times[3]
    growth = f"{b / a:.1f}x" if a and b else "—"
    if c == "num-dual":
        growth = f"{times[2] / times[1]:.0f}x (100 → 1000)"
    print(f"| {c} | " + " | ".join(cells) + f" | {growth} |")
print("\nTime per entry of x (median / n):\n")
print("| contender | " + " | ".join(f"n = {n}" for n in sizes) + " |")
print("|---|" + "---:|" * len(sizes))
for c, times in t4.items():
    print(f"| {c} | " + " | ".join(
        fmt(ns / n) if ns is not None else "skipped" for ns, n in zip(times, sizes)) + " |")
