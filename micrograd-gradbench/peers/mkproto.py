#!/usr/bin/env python3
"""mkproto.py LOG ID PREFIX: one evaluation of a GradBench log made into inputs for callgrind.

Writes PREFIX-R1.proto and PREFIX-R4.proto (the log's start, define and evaluate message ID, one
per line, with the input's min_runs set to 1 and 4 and min_seconds to 0: our binary reads them on
stdin) and PREFIX-R1.json, PREFIX-R4.json (that input alone: a C++ tool's FILE argument). One run
costs (count at R4 - count at R1) / 3 instructions (BENCHMARKS.md, sessions 12 to 15)."""
import json
import sys

log, wanted, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
start = define = evaluate = None
for line in open(log):
    message = json.loads(line).get("message")
    if not message:
        continue
    if message["kind"] == "start":
        start = message
    elif message["kind"] == "define":
        define = message
    elif message["kind"] == "evaluate" and message["id"] == wanted:
        evaluate = message
if evaluate is None:
    sys.exit(f"no evaluate message {wanted} in {log}")
for runs in (1, 4):
    message = json.loads(json.dumps(evaluate))
    message["input"]["min_runs"], message["input"]["min_seconds"] = runs, 0
    with open(f"{prefix}-R{runs}.proto", "w") as out:
        for m in (start, define, message):
            out.write(json.dumps(m) + "\n")
    with open(f"{prefix}-R{runs}.json", "w") as out:
        json.dump(message["input"], out)
