#!/usr/bin/env python3
"""table.py OUT [EVAL...]: the markdown table of a sitting.sh sitting, one row per eval and function.

Per input, our time is the geometric mean of our two runs' mean `evaluate` times (before and
after the peers); "ours / X" is the geometric mean over the inputs of our time over X's mean
(its range in brackets); the JAX column compares each tool's fastest run, since JAX's first run
of each input compiles. "A / B" is our first run over our second (geometric mean and range): the
load's drift within the eval. "d / p" is each tool's derivative time over its own primal time on
the same input (geometric mean over the inputs; JAX's fastest runs). "valid" counts every
evaluation of every tool that ran the eval (ours twice)."""
import json
import math
import os
import sys

sys.path.insert(0, os.environ.get("GRADBENCH_SHARED", "/work/shared/gradbench"))
from summary import read  # noqa: E402

PRIMAL = {"lse": "primal", "llsq": "primal", "det": "primal", "gmm": "objective",
          "ba": "objective", "ht": "objective", "lstm": "objective", "ode": "primal",
          "kmeans": "cost"}
PEERS = ["manual", "adol-c", "jax", "finite"]
EVALS = "hello lse llsq det gmm ba ht lstm ode kmeans particle saddle".split()


def read_min(path):
    """(function, input) -> (fastest evaluate time, runs, valid, error), keyed as summary.read."""
    _, _, rows = read(path)
    keys, fastest = {}, {}
    for line in open(path, encoding="utf-8"):
        o = json.loads(line)
        m = o.get("message") or {}
        if m.get("kind") == "evaluate":
            key = (m.get("function"), m.get("description") or "")
            seen = sum(1 for k in keys.values() if k[0] == key[0] and k[1].split("#")[0] == key[1])
            keys[m["id"]] = (key[0], f"{key[1]}#{seen + 1}") if seen else key
        r = o.get("response") or {}
        ev = [t["nanoseconds"] for t in r.get("timings", []) if t.get("name") == "evaluate"]
        if ev and r.get("id") in keys:
            fastest[keys[r["id"]]] = min(ev)
    return {k: (fastest.get(k),) + row[1:] for k, row in rows.items()}


def gm(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def cell(rs, digits=2):
    if not rs:
        return ""
    g, lo, hi = gm(rs), min(rs), max(rs)
    f = lambda x: f"{x:.{digits}g}" if x < 100 else f"{x:,.0f}"  # noqa: E731
    return f"{f(g)} ({f(lo)}-{f(hi)})" if len(rs) > 1 else f(g)


def main():
    d = sys.argv[1]
    evals = sys.argv[2:] or EVALS
    print("| eval | function | valid | ours / manual | ours / ADOL-C | ours / JAX | ours / finite "
          "| A / B | d / p ours | manual | ADOL-C | JAX | finite |")
    print("| --- " * 14 + "|")
    for ev in evals:
        p = lambda t: os.path.join(d, f"{ev}-{t}.jsonl")  # noqa: E731
        if not os.path.exists(p("micrograd")):
            continue
        a, b = read(p("micrograd"))[2], read(p("micrograd2"))[2] if os.path.exists(p("micrograd2")) else {}
        ours = {k: ((a[k][0] * b[k][0]) ** 0.5 if k in b and b[k][0] and a[k][0] else a[k][0],) + a[k][1:]
                for k in a}
        amin = read_min(p("micrograd"))
        bmin = read_min(p("micrograd2")) if b else {}
        oursmin = {k: (min(amin[k][0], bmin[k][0]) if k in bmin else amin[k][0],) + amin[k][1:] for k in amin}
        logs = {t: (read_min(p(t)) if t == "jax" else read(p(t))[2]) for t in PEERS if os.path.exists(p(t))}
        fns = list(dict.fromkeys(fn for fn, _ in a))
        for fn in fns:
            keys = [k for k in a if k[0] == fn]
            tables = [a, b] + list(logs.values())
            total = sum(1 for t in tables for k in keys if k in t)
            valid = sum(1 for t in tables for k in keys if k in t and t[k][2])
            cells = []
            for t in PEERS:
                L = logs.get(t)
                O = oursmin if t == "jax" else ours
                rs = [O[k][0] / L[k][0] for k in keys if L and k in L and L[k][0] and O[k][0]] if L else []
                cells.append(cell(rs))
            ab = [a[k][0] / b[k][0] for k in keys if k in b and b[k][0] and a[k][0]]
            cells.append(cell(ab))
            pf = PRIMAL.get(ev)
            for t in ["micrograd"] + PEERS:
                L = ours if t == "micrograd" else logs.get(t)
                rs = []
                if L and pf and fn != pf:
                    rs = [L[k][0] / L[(pf, k[1])][0] for k in keys
                          if k in L and (pf, k[1]) in L and L[k][0] and L[(pf, k[1])][0]]
                cells.append((f"{gm(rs):.1f}x" if gm(rs) >= 0.1 else f"{gm(rs):.2g}x") if rs else "")
            print(f"| {ev} | {fn} | {valid}/{total} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
