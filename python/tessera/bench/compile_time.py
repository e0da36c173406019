"""Compile cost, measured in fresh processes: a cold compile (empty cache)
and a cache hit (the cache the cold run filled). Each figure is the first
launch minus a warm launch, so interpreter start-up, runtime start-up and
the kernel's run time are not counted.

On the host the kernel is vector add; on CUDA it is the benchmark's bf16
matmul at 8192^3 in the configuration Tessera's autotune chose in the same
bench run (by default the persistent warp-specialized kernel, 128x256x64,
8 warps, 3 stages: the H200's winner), and Triton compiling the same source
in a fresh process with an empty cache is measured beside it.

Layer 4, api (python/tessera/__init__.py lists the layers)."""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

_HOST_CHILD = r"""
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

# argv[1]: "tessera" or "triton"; argv[2]: the configuration, as JSON
# [BLOCK_M, BLOCK_N, BLOCK_K, warps, stages, kind] (the bench's matmul
# configurations). Both runtimes are started (a vector add launched) before
# the matmul's first launch, so that only its compile and load are counted.
_CUDA_CHILD = r"""
import json, os, sys, time
import torch
import tessera
from tessera import _C
from tessera.bench import workloads as W
from tessera.bench.cuda import matmul_launcher, triton_port
t = time.perf_counter(); _C.library(); load = time.perf_counter() - t
peer = sys.argv[1] == "triton"
cfg = json.loads(sys.argv[2])
add = triton_port(W._add_kernel) if peer else W._add_kernel
x = torch.ones(4096, device="cuda")
add[(4,)](x, x, x, 4096, BLOCK=1024)
m = n = k = 8192
a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
launch = matmul_launcher(torch, not peer, a, b, c)(cfg)
torch.cuda.synchronize()
if len(sys.argv) > 3:
    os.environ["TESSERA_PASS_TIMING"] = "1"  # read at each compile: the matmul's phases only
t0 = time.perf_counter(); launch(); torch.cuda.synchronize(); first = time.perf_counter() - t0
warm = 1e9
for _ in range(10):
    t = time.perf_counter(); launch(); torch.cuda.synchronize(); warm = min(warm, time.perf_counter() - t)
print(json.dumps({"first_ms": first * 1e3, "warm_ms": warm * 1e3, "load_ms": load * 1e3}))
"""

# What the bench measures when its own rows name no winner: the kernel that
# won bf16 8192^3 on the H200 (session 29).
DEFAULT_CONFIG = (128, 256, 64, 8, 3, "persistent-ws")
# The kinds cuda.matmul_launcher launches.
MEASURED_KINDS = ("persistent-ws", "descriptors", "descriptors-ws", "pointers")


def winning_config(rows):
    """The configuration Tessera's autotune chose for the largest bf16
    matmul among `rows` (the bench's), of a kind the child launches."""
    won = [(r["shape"], r["configs"]["tessera"]) for r in rows
           if r.get("workload") == "matmul" and r.get("dtype") == "bf16" and "tessera" in r.get("configs", {})]
    won = [(s, tuple(cfg)) for s, cfg in won if tuple(cfg)[-1] in MEASURED_KINDS]
    if not won:
        return None
    size = lambda shape: [int(d) for d in shape.split("x")]
    return max(won, key=lambda w: size(w[0]))[1]


_PHASE = re.compile(r"^// (?:phase|pass) +(\S+) +([0-9.]+) ms$")


def _child(source, cache_dir, args=(), phases=None):
    # The kernel's source must live in a file: @jit reads it with inspect.
    script = os.path.join(cache_dir, "compile_time_child.py")
    if not os.path.exists(script):
        with open(script, "w") as f:
            f.write(source)
    env = dict(os.environ, TESSERA_CACHE_DIR=os.path.join(cache_dir, "cache"),
               TRITON_CACHE_DIR=os.path.join(cache_dir, "triton-cache"), CUDA_CACHE_DISABLE="1")
    env.pop("TESSERA_ALWAYS_COMPILE", None)
    env.pop("TESSERA_PASS_TIMING", None)
    args = (*args, "phases") if phases is not None else args
    out = subprocess.run([sys.executable, script, *args], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("compile-time child failed:\n" + out.stderr)
    if phases is not None:
        for line in out.stderr.splitlines():
            m = _PHASE.match(line.strip())
            if m and m.group(1) != "(total)":
                name = m.group(1) if line.lstrip("/ ").startswith("phase") else "tessera passes"
                phases[name] = phases.get(name, 0.0) + float(m.group(2))
    r = json.loads(out.stdout.strip().splitlines()[-1])
    return r["first_ms"] - r["warm_ms"], r["load_ms"]


def measure(runs=5):
    """Host vector add: (cold compile ms, cache-hit ms, library load ms),
    medians over `runs` fresh caches. Loading libtessera.so (once per
    process, at first use) is reported apart, as Triton's import is not
    counted in its figures."""
    cold, hit, load = [], [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as d:
            cold.append(_child(_HOST_CHILD, d)[0])
            ms, lib = _child(_HOST_CHILD, d)
            hit.append(ms)
            load.append(lib)
    return statistics.median(cold), statistics.median(hit), statistics.median(load)


def measure_cuda(runs=5, peer=True, config=None):
    """The CUDA bf16 matmul at 8192^3 in `config` (BLOCK_M, BLOCK_N,
    BLOCK_K, warps, stages, kind; default DEFAULT_CONFIG): {"kernel",
    "cold_compile_ms", "cache_hit_new_process_ms", "phases_ms" (Tessera's
    own split of a cold compile: frontend and tile passes, lowering, LLVM,
    ptxas), "triton_cold_compile_ms"}, medians over `runs` fresh caches."""
    config = tuple(config or DEFAULT_CONFIG)
    arg = json.dumps(list(config))
    cold, hit, splits, triton = [], [], [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as d:
            phases = {}
            cold.append(_child(_CUDA_CHILD, d, ("tessera", arg), phases)[0])
            splits.append(phases)
            hit.append(_child(_CUDA_CHILD, d, ("tessera", arg))[0])
        if peer:
            with tempfile.TemporaryDirectory() as d:
                triton.append(_child(_CUDA_CHILD, d, ("triton", arg))[0])
    names = sorted({n for s in splits for n in s})
    bm, bn, bk, warps, stages, kind = config
    result = {"kernel": "matmul bf16 8192^3, %s %dx%dx%d, %d warps, %d stages" % (kind, bm, bn, bk, warps, stages),
              "cold_compile_ms": statistics.median(cold), "cache_hit_new_process_ms": statistics.median(hit),
              "phases_ms": {n: statistics.median(s.get(n, 0.0) for s in splits) for n in names}}
    if triton:
        result["triton_cold_compile_ms"] = statistics.median(triton)
    return result
