"""python -m tessera.bench [--target cpu] [--workload a,b] [--shape 4096x4096] [--dtype fp32]
                        [--json out.json] [--plot-dir dir]"""
import argparse
import json
import os
import sys
import time

import numpy as np

import tessera
from .measure import CopyCeiling, HostTimer
from .report import plot, table
from .workloads import WORKLOADS

# Correct within this relative error, else the row is marked wrong.
TOLERANCE = {"fp64": 1e-9, "fp32": 2e-5, "fp16": 5e-3, "bf16": 3e-2}


def parse_args(argv):
    p = argparse.ArgumentParser(prog="tessera bench", description=__doc__)
    p.add_argument("--target", action="append", help="target(s) to run (default: every one present)")
    p.add_argument("--workload", help="comma-separated: " + ", ".join(WORKLOADS))
    p.add_argument("--shape", help="one shape for the chosen workloads, e.g. 4096x4096")
    p.add_argument("--dtype", help="comma-separated dtypes (fp32, fp16, bf16)")
    p.add_argument("--reps", type=int, default=30)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--json", help="write the results as JSON here")
    p.add_argument("--plot-dir", help="write one PNG plot per workload here")
    p.add_argument("--no-compile-time", action="store_true", help="skip the compile-time measurement")
    return p.parse_args(argv)


def progress(text):
    sys.stderr.write("\r\033[K" + text)
    sys.stderr.flush()


def main(argv=None):
    args = parse_args(argv)
    seed = args.seed if args.seed is not None else time.time_ns() % (1 << 31)
    rng = np.random.default_rng(seed)
    targets = args.target or [tessera.default_target()]
    names = args.workload.split(",") if args.workload else list(WORKLOADS)
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown:
        sys.exit("unknown workload(s): " + ", ".join(unknown) + " (have: " + ", ".join(WORKLOADS) + ")")
    timer = HostTimer(reps=args.reps)
    copy = CopyCeiling(timer)
    rows = []
    for target in targets:
        if target not in ("cpu", "nvptx", "cuda"):
            rows.append({"target": target, "workload": "*", "skip": "no benchmark runner for this target yet"})
            continue
        gpu = None
        if target != "cpu":
            gpu = _cuda_context(args.reps)
            if isinstance(gpu, str):
                rows.append({"target": target, "workload": "*", "skip": gpu})
                continue
        for name in names:
            w = WORKLOADS[name]
            shapes = [tuple(int(d) for d in args.shape.split("x"))] if args.shape else \
                (w.gpu_shapes if gpu else w.shapes)
            dtypes = args.dtype.split(",") if args.dtype else (w.gpu_dtypes if gpu else w.dtypes)
            for shape in shapes:
                for dtype in dtypes:
                    progress(f"{target} {name} {'x'.join(map(str, shape))} {dtype} ...")
                    if gpu:
                        rows.append(run_one(target, w, shape, dtype, rng, gpu["timer"], gpu["copy"], gpu["torch"]))
                    else:
                        rows.append(run_one(target, w, shape, dtype, rng, timer, copy))
    compile_times = None
    if not args.no_compile_time and "cpu" in targets:
        progress("compile time (fresh processes) ...")
        from .compile_time import measure
        cold, hit, load = measure()
        compile_times = {"target": "cpu", "kernel": "vector_add", "cold_compile_ms": cold, "cache_hit_new_process_ms": hit,
                         "library_load_ms": load}
    progress("")
    print(f"tessera bench (seed {seed}, {os.cpu_count()} cores, last-level cache {timer.llc >> 20} MiB)")
    print(table(rows))
    if compile_times:
        print(f"compile (cpu, vector add, fresh processes, medians of 5): cold {compile_times['cold_compile_ms']:.1f} ms, "
              f"cache hit {compile_times['cache_hit_new_process_ms']:.2f} ms "
              f"(loading libtessera.so once per process: {compile_times['library_load_ms']:.1f} ms)")
    launches = [r for r in rows if r.get("launch_us")]
    if launches:
        print("host time per launch from Python (µs, GPU kept busy): " + "; ".join(
            f"{r['workload']} {r['dtype']}: " + ", ".join(f"{k} {v:.1f}" for k, v in r["launch_us"].items())
            for r in launches))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"seed": seed, "rows": rows, "compile": compile_times}, f, indent=2)
    if args.plot_dir:
        for path in plot(rows, args.plot_dir):
            print("plot:", path)
    return 1 if any(r.get("wrong") for r in rows) else 0


def _cuda_context(reps):
    """Timer, copy ceiling and torch for a CUDA run, or why there is none."""
    try:
        import torch
    except ImportError:
        return "the CUDA benchmark needs torch (tensors, events, peers)"
    if not torch.cuda.is_available():
        return "torch sees no CUDA device"
    from .cuda import CopyCeiling as CudaCopy, CudaTimer
    timer = CudaTimer(torch, reps=max(reps, 100))
    return {"torch": torch, "timer": timer, "copy": CudaCopy(torch, timer)}


def run_one(target, w, shape, dtype, rng, timer, copy, torch=None):
    if torch is not None:
        from .cuda import make_case
        torch.manual_seed(int(rng.integers(1 << 31)))
        case = make_case(w, shape, dtype, torch)
    else:
        case = w.make(shape, dtype, rng)
    row = {"target": target, "workload": w.name, "shape": "x".join(map(str, shape)), "dtype": dtype, "unit": w.unit}
    try:
        ms = timer.median_ms(case.run, case.data_bytes)
    except tessera.TesseraError as e:
        row["skip"] = str(e).splitlines()[0]
        return row
    err = case.check()
    row["max_rel_err"] = err
    row["wrong"] = not err <= TOLERANCE.get(dtype, 1e-2)
    scale = 1e-9 if w.unit == "TFLOP/s" else 1e-6  # per ms
    row["ms"] = ms
    row["value"] = case.work / ms * scale
    peers = {}
    for peer, fn in case.peers.items():
        peers[peer] = case.work / timer.median_ms(fn, case.data_bytes) * scale
    row["peers"] = peers
    if hasattr(timer, "launch_us"):
        row["launch_us"] = {"tessera": timer.launch_us(case.run)}
        if "triton" in case.peers:
            row["launch_us"]["triton"] = timer.launch_us(case.peers["triton"])
    if w.ceiling == "copy":
        row["ceiling_name"] = "memory copy"
        row["ceiling"] = copy.gbps(case.work)
    else:
        # The vendor's library: cuBLAS, torch's SDPA, else torch or numpy.
        names = {"cublas": "cuBLAS", "sdpa": "torch SDPA", "torch": "torch", "numpy": "numpy (vendor BLAS)"}
        vendor = next((k for k in names if k in peers), None)
        row["ceiling_name"], row["ceiling"] = (names[vendor], peers[vendor]) if vendor else ("-", None)
    row["of_ceiling"] = row["value"] / row["ceiling"] if row.get("ceiling") else None
    return row


if __name__ == "__main__":
    sys.exit(main())
