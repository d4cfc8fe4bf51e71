#!/usr/bin/env python3
"""GradBench's JAX tool, timing each run to its result: `jax.block_until_ready` on the value each
timed call returns. Upstream's tool (f26651a7) times the call alone, and a call of a `jax.jit`
function returns when the computation is dispatched, not done (JAX's asynchronous dispatch), so
its timings after the first run are dispatch times. Everything else is upstream's tool: its run.py
and modules, unchanged, with gradbench.wrap's two decorators patched before they are imported.

    PYTHONPATH=$GRADBENCH_HOME/repo/python/gradbench python jax_sync.py
"""
import jax
from gradbench import wrap

_multiple_runs, _function = wrap.multiple_runs, wrap.function


def _blocking(decorator):
    def patched(**kwargs):
        inner = decorator(**kwargs)

        def apply(function):
            w = inner(lambda x: jax.block_until_ready(function(x)))
            return wrap.Wrapped(function=function, wrapped=w.wrapped)

        return apply

    return patched


wrap.multiple_runs = _blocking(_multiple_runs)
wrap.function = _blocking(_function)

import os  # noqa: E402
import sys  # noqa: E402

import gradbench.tools.jax.run as upstream  # noqa: E402

# upstream's run.py is run as a script, so its folder is where `define` finds the eval's module
sys.path.insert(0, os.path.dirname(upstream.__file__))
main = upstream.main

if __name__ == "__main__":
    main()
