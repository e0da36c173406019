"""Runs every example on the best available target, checks it against numpy
in higher precision on fresh random inputs, and prints its speed."""
import importlib
import os
import sys
import time

import numpy as np

import tessera

EXAMPLES = ["vector_add", "softmax", "layernorm", "matmul"]


def speed(nbytes, ms, ms_new_output, shape):
    """Bandwidth into a reused output, and per call when the call allocates its
    output as the tutorials do: a large new numpy array costs page faults on
    first touch (the operating system's time, not Tessera's), often more than
    the kernel itself."""
    return f"{nbytes / ms * 1e-6:.1f} GB/s at {shape} ({nbytes / ms_new_output * 1e-6:.1f} allocating the output per call)"


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    seed = int(os.environ.get("TESSERA_SEED", time.time_ns() % (1 << 31)))
    rng = np.random.default_rng(seed)
    print(f"Tessera {tessera.__version__}: examples on target '{tessera.default_target()}' (seed {seed})")
    bench = lambda fn: tessera.testing.do_bench(fn, warmup=3, rep=20)
    failures = 0
    for name in EXAMPLES:
        mod = importlib.import_module(name)
        start = time.perf_counter()
        ok, result = mod.run(rng, bench, speed)
        failures += not ok
        print(f"  {name:<12} {'ok  ' if ok else 'FAIL'}  {result}  ({time.perf_counter() - start:.1f} s with compile)")
    if failures:
        print(f"{failures} example(s) gave wrong results")
        sys.exit(1)


if __name__ == "__main__":
    main()
