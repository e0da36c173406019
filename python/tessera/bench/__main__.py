"""python -m tessera.bench [--target cpu] [--workload a,b] [--shape 4096x4096] [--dtype fp32]
                        [--json out.json] [--plot-dir dir]

Layer 4, api (python/tessera/__init__.py lists the layers)."""
import argparse
import json
import os
import sys
import time

import numpy as np

import tessera
from tessera import _C, _targets
from .measure import CopyCeiling, HostTimer
from .report import plot, table
from .workloads import WORKLOADS

# Correct within this relative error, else the row is marked wrong.
TOLERANCE = {"fp64": 1e-9, "fp32": 2e-5, "fp16": 5e-3, "bf16": 3e-2}


def parse_args(argv, prog="python -m tessera.bench"):
    p = argparse.ArgumentParser(prog=prog, description="Times Tessera's kernels beside their peers (numpy, torch, "
                                "Triton, cuBLAS where present) and the copy ceiling measured in the same run, "
                                "checking every result.")
    p.add_argument("--target", action="append", help="target(s) to run, repeatable (default: tessera.default_target())")
    p.add_argument("--workload", help="comma-separated: " + ", ".join(WORKLOADS))
    p.add_argument("--shape", help="one shape for the chosen workloads, e.g. 4096x4096")
    p.add_argument("--dtype", help="comma-separated dtypes (fp32, fp16, bf16)")
    p.add_argument("--reps", type=int, default=30, help="timed repetitions per measurement (default 30)")
    p.add_argument("--seed", type=int, default=None, help="input seed (default: from the clock, printed)")
    p.add_argument("--json", help="write the results as JSON here")
    p.add_argument("--plot-dir", help="write one PNG plot per workload here")
    p.add_argument("--no-compile-time", action="store_true", help="skip the compile-time measurement")
    return p.parse_args(argv)


def progress(text):
    """One status line, rewritten in place on a terminal; in a log (not a
    terminal) one plain line per step, without control codes."""
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K" + text)
    elif text:
        sys.stderr.write(text + "\n")
    sys.stderr.flush()


def main(argv=None, prog="python -m tessera.bench"):
    args = parse_args(argv, prog)
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
        try:
            timing = _C.find_target(target)[1].timer  # the registry says how its kernels are timed
        except tessera.TesseraError as e:
            sys.exit(str(e))
        if not _C.target_available(target):
            rows.append({"target": target, "workload": "*", "skip": "no code generator for this target in this build"})
            continue
        gpu = vk = None
        if timing == "device_timestamps":
            from . import vulkan
            vk = vulkan.context(target, args.reps)
            if isinstance(vk, str):
                rows.append({"target": target, "workload": "*", "skip": vk})
                continue
        elif timing != "host_clock":
            gpu = _torch_context(target, args.reps)
            if isinstance(gpu, str):
                rows.append({"target": target, "workload": "*", "skip": gpu})
                continue
        for name in names:
            w = WORKLOADS[name]
            big = gpu or (vk and vk["gpu_shapes"])
            shapes = [tuple(int(d) for d in args.shape.split("x"))] if args.shape else \
                (w.gpu_shapes if big else w.shapes)
            dtypes = args.dtype.split(",") if args.dtype else (w.gpu_dtypes if big else w.dtypes)
            if vk and not w.on_devices:
                rows.append({"target": target, "workload": name,
                             "skip": "not benchmarked on %s devices yet" % vk["device"]})
                continue
            for shape in shapes:
                for dtype in dtypes:
                    if dtype not in w.known_dtypes:
                        rows.append({"target": target, "workload": name, "shape": "x".join(map(str, shape)),
                                     "dtype": dtype, "skip": "no %s version of %s (it has %s)"
                                     % (dtype, name, ", ".join(w.known_dtypes))})
                        continue
                    progress(f"{target} {name} {'x'.join(map(str, shape))} {dtype} ...")
                    if gpu:
                        rows.append(run_one(target, w, shape, dtype, rng, gpu["timer"], gpu["copy"], gpu["torch"],
                                            gpu["device"]))
                    elif vk:
                        rows.append(run_one(target, w, shape, dtype, rng, vk["timer"], vk["copy"], device=vk["device"]))
                    else:
                        rows.append(run_one(target, w, shape, dtype, rng, timer, copy))
    compile_times = None
    host = _targets.target_of_device(None)
    # The GPU compile is measured where a target timed by torch's events ran
    # (torch, Triton and a device are there).
    cuda_ran = any(r.get("workload") != "*" and _C.find_target(r["target"])[1].timer == "torch_events" for r in rows)
    if not args.no_compile_time and any(_targets.backend_of(t) == _C.HOST for t in targets):
        progress("compile time (fresh processes) ...")
        from .compile_time import measure
        cold, hit, load = measure()
        compile_times = {"target": host, "kernel": "vector_add", "cold_compile_ms": cold, "cache_hit_new_process_ms": hit,
                         "library_load_ms": load}
    cuda_compile = None
    if not args.no_compile_time and cuda_ran:
        progress("compile time on CUDA (fresh processes) ...")
        from .compile_time import measure_cuda, winning_config
        try:
            cuda_compile = measure_cuda(peer=_has_triton(), config=winning_config(rows))
        except RuntimeError as e:
            print("compile time on CUDA: %s" % e, file=sys.stderr)
    progress("")
    print(f"tessera bench (seed {seed}, {os.cpu_count()} cores, last-level cache {timer.llc >> 20} MiB)")
    print(table(rows))
    if compile_times:
        print(f"compile ({host}, vector add, fresh processes, medians of 5): cold {compile_times['cold_compile_ms']:.1f} ms, "
              f"cache hit {compile_times['cache_hit_new_process_ms']:.2f} ms "
              f"(loading libtessera.so once per process: {compile_times['library_load_ms']:.1f} ms)")
    if cuda_compile:
        c = cuda_compile
        split = ", ".join(f"{n} {ms:.1f}" for n, ms in c["phases_ms"].items())
        peer = f"; Triton cold {c['triton_cold_compile_ms']:.1f} ms" if "triton_cold_compile_ms" in c else ""
        print(f"compile (nvptx, {c['kernel']}, fresh processes, medians of 5): cold {c['cold_compile_ms']:.1f} ms "
              f"({split} ms), cache hit {c['cache_hit_new_process_ms']:.2f} ms{peer}")
    checked = [r for r in rows if "tessera checked" in r.get("peers", {})]
    if checked:
        print("checked mode (debug=True) cost: " + "; ".join(
            f"{r['target']} {r['workload']} {r['dtype']}: {r['peers']['tessera checked']:.1f} {r['unit']}, "
            f"{r['value'] / r['peers']['tessera checked']:.2f}x the unchecked time" for r in checked))
    launches = [r for r in rows if r.get("launch_us")]
    if launches:
        print("host time per launch from Python (µs, GPU kept busy): " + "; ".join(
            f"{r['workload']} {r['dtype']}: " + ", ".join(f"{k} {v:.1f}" for k, v in r["launch_us"].items())
            for r in launches))
    tuned = [r for r in rows if r.get("configs")]
    if tuned:
        print("autotuned configurations chosen: " + "; ".join(
            f"{r['workload']} {r['shape']} {r['dtype']}: " + ", ".join(f"{k} {v}" for k, v in r["configs"].items())
            for r in tuned))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"seed": seed, "rows": rows, "compile": compile_times, "compile_cuda": cuda_compile}, f, indent=2)
    if args.plot_dir:
        for path in plot(rows, args.plot_dir):
            print("plot:", path)
    return 1 if any(r.get("wrong") for r in rows) else 0


def _has_triton():
    try:
        import triton  # noqa: F401
        return True
    except ImportError:
        return False


def _torch_context(target, reps):
    """Timer, copy ceiling, torch and the torch device for a GPU run, or why
    there is none. The runner (bench/cuda.py) drives torch.cuda: the target's
    memory must be what this torch calls a torch.cuda device (CUDA, or ROCm's
    build)."""
    try:
        import torch
    except ImportError:
        return "the GPU benchmark needs torch (tensors, events, peers)"
    flavour = _C.find_target(target)[1]
    if not flavour.torch_device or getattr(torch, flavour.torch_device, None) is not torch.cuda:
        return "no benchmark runner for this target's devices yet"
    if not _targets.torch_build_matches(flavour, torch) or not torch.cuda.is_available():
        return "torch sees no %s device" % flavour.backend
    from .cuda import CopyCeiling as CudaCopy, CudaTimer
    timer = CudaTimer(torch, flavour.torch_device, reps=max(reps, 100))
    return {"torch": torch, "timer": timer, "copy": CudaCopy(torch, timer), "device": flavour.torch_device}


def run_one(target, w, shape, dtype, rng, timer, copy, torch=None, device=None):
    if torch is not None:
        from .cuda import make_case
        torch.manual_seed(int(rng.integers(1 << 31)))
        case = make_case(w, shape, dtype, torch, device)
    elif device is not None:
        case = w.make(shape, dtype, rng, device=device, time_ms=getattr(timer, "tune_ms", None))
    else:
        case = w.make(shape, dtype, rng)
    row = {"target": target, "workload": w.name, "shape": "x".join(map(str, shape)), "dtype": dtype, "unit": w.unit}
    if hasattr(timer, "median_ms_each"):  # Tessera and its peers timed side by side
        times = timer.median_ms_each({"tessera": case.run, **case.peers}, case.data_bytes)
    else:
        times = {"tessera": _time_or_error(timer, case.run, case.data_bytes)}
        times.update({peer: _time_or_error(timer, fn, case.data_bytes) for peer, fn in case.peers.items()})
    if isinstance(times["tessera"], Exception):
        if not isinstance(times["tessera"], tessera.TesseraError):
            raise times["tessera"]
        row["skip"] = str(times["tessera"]).splitlines()[0]
        return row
    ms = times["tessera"]
    for t in case.outputs:
        t.fill_(float("nan") if t.is_floating_point() else -1)
    case.run()
    err = case.check()
    row["max_rel_err"] = err
    row["wrong"] = not err <= {**TOLERANCE, **getattr(w, "tolerance", {})}.get(dtype, 1e-2)
    scale = 1e-9 if w.unit == "TFLOP/s" else 1e-6  # per ms
    row["ms"] = ms
    row["value"] = case.work / ms * scale
    peers = {}
    for peer in case.peers:
        if isinstance(times[peer], Exception):  # a peer that cannot run this case: the row says why
            row.setdefault("peer_errors", {})[peer] = str(times[peer]).splitlines()[0][:200]
            print(f"{peer} {w.name} {dtype}: {row['peer_errors'][peer]}", file=sys.stderr)
        else:
            peers[peer] = case.work / times[peer] * scale
    row["peers"] = peers
    if getattr(case, "configs", None):
        row["configs"] = case.configs
    if hasattr(timer, "launch_us_each"):
        launches = {"tessera": case.run}
        if "triton" in peers:  # measured above (not failed)
            launches["triton"] = case.peers["triton"]
        if hasattr(timer, "bare_launch"):  # the floor: one launch of an empty-ish torch kernel
            launches["bare torch launch"] = timer.bare_launch
        row["launch_us"] = timer.launch_us_each(launches)
    if w.ceiling == "copy":
        row["ceiling_name"] = copy.name(case.work) if hasattr(copy, "name") else "memory copy"
        row["ceiling"] = copy.gbps(case.work)
    else:
        # The vendor's library: cuBLAS, torch's SDPA, else torch or numpy.
        names = {"cublas": "cuBLAS", "scaled_mm": "torch._scaled_mm", "sdpa": "torch SDPA", "torch": "torch", "numpy": "numpy (vendor BLAS)"}
        vendor = next((k for k in names if k in peers), None)
        row["ceiling_name"], row["ceiling"] = (names[vendor], peers[vendor]) if vendor else ("-", None)
    row["of_ceiling"] = row["value"] / row["ceiling"] if row.get("ceiling") else None
    return row


def _time_or_error(timer, fn, data_bytes):
    try:
        return timer.median_ms(fn, data_bytes)
    except Exception as e:  # noqa: BLE001  (run_one sorts Tessera's errors from its peers')
        return e


if __name__ == "__main__":
    sys.exit(main())
