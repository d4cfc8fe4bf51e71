#!/usr/bin/env bash
# One GradBench sitting with the peers (BENCHMARKS.md "Session 14: with the peers"): for each eval,
# this tool, then each peer that has the eval, then this tool again (A, peers, A: the table takes
# the geometric mean of our two runs, and their ratio says how much the load moved meanwhile),
# back to back at the reduced sizes of session 10, with the load average at each run's start
# and end. Needs `../shared/gradbench/setup.sh --peers` (GRADBENCH_HOME, default /tmp/gradbench).
#
#   micrograd-gradbench/peers/sitting.sh OUT BIN [EVAL...]      # all 12 evals by default
#   micrograd-gradbench/peers/table.py OUT [EVAL...]            # the markdown table from OUT
#
# OUT: a folder for the logs (OUT/EVAL-TOOL.jsonl, OUT/EVAL-micrograd2.jsonl for our second run)
# and OUT/sitting.log; BIN: the tool's release binary, copied aside so one commit runs throughout:
#   RUSTFLAGS="-C target-cpu=native" cargo build --release -p micrograd-gradbench
#   cp target/release/micrograd-gradbench /tmp/mg
# TOOLS="jax" runs only those peers (with ours before and after).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 2 ] || { sed -n '2,15p' "$0"; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd); bin=$2; shift 2
evals=${*:-hello lse llsq det gmm ba ht lstm ode kmeans particle saddle}
home=${GRADBENCH_HOME:-/tmp/gradbench}
summary=${GRADBENCH_SHARED:-/work/shared/gradbench}/summary.py
repo=$home/repo
py=$home/venv/bin/python
export PYTHONPATH=$repo/python/gradbench
cd "$repo" || exit 1
r="--min-runs 1 --min-seconds 0.3"
# JAX compiles under jax.jit in its first run of each input: three runs, and the table compares
# each tool's fastest run in the JAX column. JAX runs through jax_sync.py, upstream's tool timing
# each run to its result (upstream's timings stop at the asynchronous dispatch).
j="--min-runs 3 --min-seconds 0.3"
load() { cut -d' ' -f1-3 /proc/loadavg; }
for e in $evals; do
  case $e in
    hello) tools="manual adol-c jax finite"; o="" ;;
    lse) tools="manual adol-c jax"; o="-n 2500 10000 40000 160000" ;;
    llsq) tools="manual adol-c jax finite"; o="" ;;
    det) tools="manual adol-c finite"; o="-l 5 6 7 8 9 10" ;;
    lstm) tools="manual adol-c finite"; o="" ;;
    ba) tools="manual adol-c finite"; o="--max 10" ;;
    gmm) tools="manual adol-c jax"; o="-d 2 10 32 -k 5 25 100" ;;
    ode) tools="manual adol-c jax"; o="-n 1000 10000 -s 1 10 100" ;;
    kmeans) tools="manual adol-c jax"; o="-k 10 100 1000 -n 1000 -d 8 16" ;;
    ht) tools="manual"; o="--max 8" ;; # ADOL-C's ht needs boost, not installed here
    particle | saddle) tools="finite"; o="" ;;
    *) echo "unknown eval $e"; exit 2 ;;
  esac
  tools=${TOOLS:-$tools}
  echo "== $e start $(date -u +%H:%M:%S) load $(load)"
  for t in micrograd $tools micrograd2; do
    case $t in
      micrograd | micrograd2) cmd=$bin ;;
      jax) cmd="$py $here/jax_sync.py" ;;
      *) cmd="$py python/gradbench/gradbench/cpp.py $t" ;;
    esac
    runs=$r; [ $t = jax ] && runs=$j
    [ $e = hello ] && runs=""
    s="$(date -u +%H:%M:%S) load $(load)"
    "$home/target/release/gradbench" run --timeout 600 -o "$out/$e-$t.jsonl" \
      --eval "$py python/gradbench/gradbench/evals/$e/run.py $runs $o" --tool "$cmd" >/dev/null 2>&1
    echo "   $e $t: $s .. $(date -u +%H:%M:%S) load $(load): $("$py" "$summary" "$out/$e-$t.jsonl" | tail -1)"
  done
  echo "== $e end $(date -u +%H:%M:%S) load $(load)"
done 2>&1 | tee -a "$out/sitting.log"
