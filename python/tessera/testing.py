"""tessera.testing: Triton's benchmarking and comparison helpers.

do_bench measures on the active device (tessera.runtime.driver.active), as
Triton's does: on CUDA (torch present) with CUDA events around each call
on torch's current stream, the L2 cache flushed by zeroing a 256 MB buffer
before each; on another GPU backend by the wall clock around each call
and a device synchronize; on the host CPU by the wall clock alone (a
launch returns when the kernel has finished).

Layer 3, launch (python/tessera/__init__.py lists the layers).
"""

import contextlib
import functools
import os
import statistics
import sys
import time

from . import language as tl  # noqa: F401  (Triton's testing module has both names)
from . import runtime  # noqa: F401

_FLUSH_BYTES = 256 * 1024 * 1024  # beyond any GPU's L2, as Triton's cache buffer


class _HostClock:
    """Wall-clock ms of each call; `synchronize` makes the device's queued
    work part of the call (None: the host, where launches are synchronous)."""

    def __init__(self, synchronize=None):
        self.synchronize = synchronize or (lambda: None)

    def estimate_ms(self, fn, n=5):
        return statistics.fmean(self.times(fn, n))

    def times(self, fn, n, grad_to_none=None):
        self.synchronize()
        out = []
        for _ in range(n):
            _clear_grads(grad_to_none)
            t0 = time.perf_counter()
            fn()
            self.synchronize()
            out.append((time.perf_counter() - t0) * 1000)
        return out


class _CudaEventClock:
    """Triton's measurement: CUDA events around each call on torch's
    current stream, L2 flushed before each call."""

    def __init__(self, torch):
        self.torch = torch
        self.cache = torch.empty(_FLUSH_BYTES, dtype=torch.int8, device="cuda")

    def synchronize(self):
        self.torch.cuda.synchronize()

    def estimate_ms(self, fn, n=5):
        """ms per call with its flush, as Triton estimates the number of
        calls (timing fn alone would run tiny kernels tens of thousands of
        times, each behind a 256 MB flush)."""
        cuda = self.torch.cuda
        start, end = cuda.Event(enable_timing=True), cuda.Event(enable_timing=True)
        start.record()
        for _ in range(n):
            self.cache.zero_()
            fn()
        end.record()
        cuda.synchronize()
        return start.elapsed_time(end) / n

    def times(self, fn, n, grad_to_none=None):
        cuda = self.torch.cuda
        starts = [cuda.Event(enable_timing=True) for _ in range(n)]
        ends = [cuda.Event(enable_timing=True) for _ in range(n)]
        for start, end in zip(starts, ends):
            _clear_grads(grad_to_none)
            self.cache.zero_()
            start.record()
            fn()
            end.record()
        cuda.synchronize()
        return [start.elapsed_time(end) for start, end in zip(starts, ends)]


def _clear_grads(tensors):
    if tensors is not None:
        for x in tensors:
            x.grad = None


def _clock():
    from . import _C, _targets
    from .runtime import driver
    backend = driver.active._backend()
    timer = _targets.flavour_of_backend(backend)[1].timer  # the registry says how its kernels are timed
    if timer == "host_clock":
        return _HostClock()
    torch = driver._torch_cuda()
    if torch is not None and timer == "torch_events":
        return _CudaEventClock(torch)
    device = _C.get_device(backend, 0)
    return _HostClock(lambda: _C._check(_C.library().tessera_device_synchronize(device)))


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, return_mode="mean"):
    """Runs `fn` for about `warmup` ms, then about `rep` ms, and returns the
    time per call in ms on the active device: the `return_mode` statistic
    ("min", "max", "mean", "median", or "all": every time), or the list of
    `quantiles` when given (a single number for one quantile).
    grad_to_none: tensors whose .grad is set to None before each call."""
    assert return_mode in ("min", "max", "mean", "median", "all")
    clock = _clock()
    fn()
    clock.synchronize()
    estimate_ms = max(clock.estimate_ms(fn), 1e-6)
    n_warmup = max(1, int(warmup / estimate_ms))
    n_repeat = max(1, int(rep / estimate_ms))
    for _ in range(n_warmup):
        fn()
    times = clock.times(fn, n_repeat, grad_to_none)
    if quantiles is not None:
        ordered = sorted(times)
        out = [ordered[min(len(ordered) - 1, int(q * len(ordered)))] for q in quantiles]
        return out[0] if len(out) == 1 else out
    if return_mode == "all":
        return times
    return {"min": min, "max": max, "mean": statistics.fmean, "median": statistics.median}[return_mode](times)


def assert_close(x, y, atol=None, rtol=None, err_msg=""):
    """numpy.testing.assert_allclose with Triton's default tolerances: `x`
    and `y` (anything numpy.asarray takes, compared as float64) must agree
    within atol + rtol * |y| elementwise, atol 1e-2 and rtol 0 when None;
    else AssertionError, with `err_msg`."""
    import numpy as np
    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    np.testing.assert_allclose(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64),
                               atol=atol, rtol=rtol, err_msg=err_msg)


def do_bench_cudagraph(fn, rep=20, grad_to_none=None, quantiles=None, return_mode="mean"):
    """Triton's CUDA-graph timing helper; here the same measurement as
    do_bench (launches are timed as they are made)."""
    return do_bench(fn, warmup=max(1, rep // 4), rep=rep, grad_to_none=grad_to_none, quantiles=quantiles,
                    return_mode=return_mode)


class Benchmark:
    """One performance report, as Triton's: `fn(**{x_name: x}, **{line_arg: line}, **args)`
    over every value in `x_vals` (one value for all `x_names`, or one tuple
    per x) and every line in `line_vals`; fn returns ms, or (ms, min, max)."""

    def __init__(self, x_names, x_vals, line_arg, line_vals, line_names, plot_name, args, xlabel="", ylabel="",
                 x_log=False, y_log=False, styles=None, color=None):
        self.x_names, self.x_vals = list(x_names), list(x_vals)
        self.line_arg, self.line_vals, self.line_names = line_arg, list(line_vals), list(line_names)
        self.plot_name, self.args = plot_name, dict(args)
        self.xlabel, self.ylabel, self.x_log, self.y_log, self.styles = xlabel, ylabel, x_log, y_log, styles
        if len(self.line_vals) != len(self.line_names):
            raise ValueError("Benchmark %r: %d line_vals for %d line_names" % (plot_name, len(self.line_vals),
                                                                                len(self.line_names)))


class Report:
    """What perf_report makes of a function: `.run(print_data=, show_plots=,
    save_path=, return_df=)` measures every benchmark. `Mark` is Triton's
    name for it."""

    def __init__(self, fn, benchmarks):
        self.fn, self.benchmarks = fn, benchmarks

    def _measure(self, bench, **extra):
        rows = []  # (x values, [(mean, min, max) per line])
        for x in bench.x_vals:
            xs = list(x) if isinstance(x, (list, tuple)) else [x] * len(bench.x_names)
            if len(xs) != len(bench.x_names):
                raise ValueError("Benchmark %r: x value %r for x_names %r" % (bench.plot_name, x, bench.x_names))
            kwargs = dict(zip(bench.x_names, xs))
            lines = []
            for line in bench.line_vals:
                r = self.fn(**kwargs, **{bench.line_arg: line}, **bench.args, **extra)
                lines.append(tuple(r) if isinstance(r, (list, tuple)) else (r, None, None))
            rows.append((xs, lines))
        return rows

    @staticmethod
    def _table(bench, rows):
        header = bench.x_names + bench.line_names
        cells = [[_fmt(v) for v in xs] + [_fmt(line[0]) for line in lines] for xs, lines in rows]
        widths = [max(len(h), *(len(c[i]) for c in cells)) if cells else len(h) for i, h in enumerate(header)]
        out = ["  ".join(h.rjust(w) for h, w in zip(header, widths))]
        out += ["  ".join(c.rjust(w) for c, w in zip(row, widths)) for row in cells]
        return "\n".join(out)

    def _plot(self, bench, rows, show, save_path):
        try:
            import matplotlib
            if not show:
                matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            return
        fig, ax = plt.subplots()
        xs = [r[0][0] for r in rows]
        for i, name in enumerate(bench.line_names):
            style = bench.styles[i] if bench.styles and i < len(bench.styles) else None
            kw = dict(color=style[0], ls=style[1]) if style else {}
            ax.plot(xs, [r[1][i][0] for r in rows], label=name, **kw)
            lo, hi = [r[1][i][1] for r in rows], [r[1][i][2] for r in rows]
            if all(v is not None for v in lo + hi):
                ax.fill_between(xs, lo, hi, alpha=0.15, **({"color": style[0]} if style else {}))
        ax.set_xlabel(bench.xlabel or bench.x_names[0])
        ax.set_ylabel(bench.ylabel)
        if bench.x_log:
            ax.set_xscale("log")
        if bench.y_log:
            ax.set_yscale("log")
        ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5))  # outside the data
        fig.tight_layout()
        if save_path:
            import os
            fig.savefig(os.path.join(save_path, "%s.png" % bench.plot_name))
        if show:
            plt.show()
        plt.close(fig)

    def run(self, show_plots=False, print_data=False, save_path="", return_df=False, **kwargs):
        """Measures every benchmark (fn once per x value and line, with
        `kwargs` passed on) and prints its table (print_data), plots it with
        matplotlib when that is installed (show_plots, or into
        save_path/<plot_name>.png), writes save_path/<plot_name>.csv, and
        with return_df returns the rows: a pandas DataFrame per benchmark (a
        list of dicts without pandas), one for a single Benchmark."""
        single = isinstance(self.benchmarks, Benchmark)
        results = []
        for bench in [self.benchmarks] if single else self.benchmarks:
            rows = self._measure(bench, **kwargs)
            if bench.plot_name and (show_plots or save_path):
                self._plot(bench, rows, show_plots, save_path)
            table = self._table(bench, rows)
            if print_data:
                print(bench.plot_name + ":")
                print(table)
            if save_path:
                import os
                with open(os.path.join(save_path, "%s.csv" % bench.plot_name), "w") as f:
                    f.write(",".join(bench.x_names + bench.line_names) + "\n")
                    for xs, lines in rows:
                        f.write(",".join(str(v) for v in list(xs) + [line[0] for line in lines]) + "\n")
            results.append(_frame(bench, rows))
        if return_df:
            return results[0] if single else results


def _fmt(v):
    return "%.6g" % v if isinstance(v, float) else str(v)


def _frame(bench, rows):
    """The report's rows as a pandas DataFrame when pandas is installed (as
    Triton returns), else as a list of dicts."""
    records = [dict(zip(bench.x_names + bench.line_names, list(xs) + [line[0] for line in lines]))
               for xs, lines in rows]
    try:
        import pandas
    except ImportError:
        return records
    return pandas.DataFrame(records, columns=bench.x_names + bench.line_names)


def perf_report(benchmarks):
    """Decorator: `@perf_report(Benchmark(...))` (or a list of them) turns a
    measuring function into a Report whose .run() measures and prints/plots."""
    return lambda fn: Report(fn, benchmarks)


# Triton's name for what perf_report returns.
Mark = Report


def nvsmi(attrs):
    """GPU 0's values of nvidia-smi's `--query-gpu` attributes, as ints
    (Triton's helper; FileNotFoundError without nvidia-smi)."""
    import subprocess
    import sys
    out = subprocess.check_output(["nvidia-smi", "-i", "0", "--query-gpu=" + ",".join(attrs),
                                   "--format=csv,noheader,nounits"])
    return [int(x) for x in out.decode(sys.stdout.encoding or "utf-8").split(",")]


def _properties(device):
    from .runtime import driver
    if device is None:
        device = driver.active.get_current_device()
    return driver.active.utils.get_device_properties(device)


def get_dram_gbps(device=None):
    """The device memory's bandwidth in GB/s from its clock (kHz) and bus
    width (bits), double data rate, as Triton computes it. KeyError where
    the device does not report them (the host)."""
    props = _properties(device)
    return props["mem_clock_rate"] * props["mem_bus_width"] * 2 / 1e6 / 8


def _ops_per_sub_core(dtype, torch, tensor_cores):
    """Triton's table of operations per cycle per sub-core."""
    capability = torch.cuda.get_device_capability()
    if tensor_cores:
        if capability[0] < 8:
            if dtype != torch.float16:
                raise RuntimeError("dtype not supported")
            return 256
        if dtype in (torch.float32, torch.int32):
            return 256
        if dtype in (torch.float16, torch.bfloat16, torch.int16):
            return 512
        if dtype in (torch.int8, tl.float8e4nv, tl.float8e5):
            return 1024
        raise RuntimeError("dtype not supported")
    if capability[0] < 8:
        table = {torch.float32: 32, torch.float16: 64}
    else:
        table = {torch.float32: 32, torch.float16: 64, torch.bfloat16: 64}
    if dtype not in table:
        raise RuntimeError("dtype not supported")
    return table[dtype]


def get_max_tensorcore_tflops(dtype, clock_rate, device=None):
    """Peak tensor-core TFLOP/s at `clock_rate` (kHz): 4 sub-cores per
    multiprocessor, each doing Triton's ops per cycle for the dtype."""
    import torch
    sub_cores = _properties(device)["multiprocessor_count"] * 4
    return sub_cores * clock_rate * _ops_per_sub_core(dtype, torch, True) * 1e-9


def get_max_simd_tflops(dtype, clock_rate, device=None):
    """Peak SIMD (non-tensor-core) TFLOP/s at `clock_rate` (kHz)."""
    import torch
    sub_cores = _properties(device)["multiprocessor_count"] * 4
    return sub_cores * clock_rate * _ops_per_sub_core(dtype, torch, False) * 1e-9


runtime.driver.benchmarker = do_bench  # driver.active.get_benchmarker() answers with it


def _nvidia_smi(*args):
    import subprocess
    subprocess.check_output(["nvidia-smi", "-i", "0"] + list(args))


@contextlib.contextmanager
def set_gpu_clock(ref_sm_clock=1350, ref_mem_clock=1215):
    """Locks GPU 0's SM and memory clocks (MHz) for steady timings, checks
    they took, and yields (tensor-core TFLOP/s, DRAM GB/s) at those clocks,
    with Triton's reference figures per clock (an A100's: 108
    multiprocessors of 1024 FMAs per cycle, a 5120-bit bus). The clocks are
    unlocked on exit, also after an error. Needs nvidia-smi and the right
    to set clocks."""
    try:
        _nvidia_smi("-pm", "1")
        _nvidia_smi("--lock-gpu-clocks=%d,%d" % (ref_sm_clock, ref_sm_clock))
        _nvidia_smi("--lock-memory-clocks=%d,%d" % (ref_mem_clock, ref_mem_clock))
        sm_clock, mem_clock = nvsmi(["clocks.current.sm"])[0], nvsmi(["clocks.current.memory"])[0]
        if abs(sm_clock - ref_sm_clock) >= 10:
            raise AssertionError("GPU SMs must run at %d MHz (they run at %d)" % (ref_sm_clock, sm_clock))
        if abs(mem_clock - ref_mem_clock) >= 10:
            raise AssertionError("GPU memory must run at %d MHz (it runs at %d)" % (ref_mem_clock, mem_clock))
        yield 1e-6 * 2 * 108 * 4 * 256 * ref_sm_clock, 640 * 2 * ref_mem_clock * 1e-3
    finally:
        _nvidia_smi("-pm", "0")
        _nvidia_smi("-rgc")
        _nvidia_smi("-rmc")


def _parent_process_name():
    try:
        with open("/proc/%d/comm" % os.getppid()) as f:
            return f.read().strip()
    except OSError:
        return ""


def cuda_memcheck(**target_kwargs):
    """Decorates a pytest test: the cases whose arguments include
    `target_kwargs` run again in a pytest under NVIDIA's compute-sanitizer
    (cuda-memcheck's successor), which must report no error; the test
    needs a `request` fixture. Other cases, and the case inside the
    sanitizer, run as they are."""
    def decorator(test_fn):
        @functools.wraps(test_fn)
        def wrapper(*args, **kwargs):
            if target_kwargs.items() <= kwargs.items() and _parent_process_name() != "compute-sanitizer":
                import subprocess
                if "request" not in kwargs:
                    raise TypeError("a cuda_memcheck test needs a (possibly unused) `request` fixture")
                path = os.path.realpath(test_fn.__globals__["__file__"])
                case = "%s::%s[%s]" % (path, test_fn.__name__, kwargs["request"].node.callspec.id)
                env = dict(os.environ, PYTORCH_NO_CUDA_MEMORY_CACHING="1")
                out = subprocess.run(["compute-sanitizer", sys.executable, "-m", "pytest", "-vs", case],
                                     capture_output=True, env=env)
                assert out.returncode == 0, "compute-sanitizer returned an error: bounds checking failed"
                assert "ERROR SUMMARY: 0 errors" in out.stdout.decode(errors="replace")
            else:
                test_fn(*args, **kwargs)
        return wrapper
    return decorator
