"""Compile cost, measured in fresh processes: a cold compile of vector add
(empty cache) and a cache hit (the cache the cold run filled). Each figure is
the first launch minus a warm launch, so interpreter start-up and the kernel's
run time are not counted."""
import json
import os
import statistics
import subprocess
import sys
import tempfile

_CHILD = r"""
import json, time
import numpy as np
import tessera
import tessera.language as tl
from tessera import _C
t = time.perf_counter(); _C.library(); load = time.perf_counter() - t

@tessera.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)

x = np.ones(4096, np.float32); y = np.ones(4096, np.float32); o = np.empty_like(x)
t0 = time.perf_counter(); add_kernel[(4,)](x, y, o, 4096, BLOCK=1024); first = time.perf_counter() - t0
warm = 1e9
for _ in range(20):
    t = time.perf_counter(); add_kernel[(4,)](x, y, o, 4096, BLOCK=1024); warm = min(warm, time.perf_counter() - t)
print(json.dumps({"first_ms": first * 1e3, "warm_ms": warm * 1e3, "load_ms": load * 1e3}))
"""


def _child(cache_dir):
    # The kernel's source must live in a file: @jit reads it with inspect.
    script = os.path.join(cache_dir, "compile_time_child.py")
    if not os.path.exists(script):
        with open(script, "w") as f:
            f.write(_CHILD)
    env = dict(os.environ, TESSERA_CACHE_DIR=os.path.join(cache_dir, "cache"))
    env.pop("TESSERA_ALWAYS_COMPILE", None)
    out = subprocess.run([sys.executable, script], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("compile-time child failed:\n" + out.stderr)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    return r["first_ms"] - r["warm_ms"], r["load_ms"]


def measure(runs=5):
    """(cold compile ms, cache-hit ms, library load ms): medians over `runs`
    fresh caches. Loading libtessera.so (once per process, at first use) is
    reported apart, as Triton's import is not counted in its figures."""
    cold, hit, load = [], [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as d:
            cold.append(_child(d)[0])
            ms, lib = _child(d)
            hit.append(ms)
            load.append(lib)
    return statistics.median(cold), statistics.median(hit), statistics.median(load)
