"""tessera.testing: Triton's benchmarking and comparison helpers.

do_bench times with the wall clock (time.perf_counter): on the host CPU a
launch returns when the kernel has finished, so there is nothing to
synchronize.
"""

import statistics
import time


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, return_mode="mean"):
    """Runs `fn` for about `warmup` ms, then about `rep` ms, and returns the
    time per call in ms: the `return_mode` statistic ("min", "max", "mean",
    "median", "all"), or the list of `quantiles` when given."""
    assert return_mode in ("min", "max", "mean", "median", "all")
    fn()
    start = time.perf_counter()
    for _ in range(5):
        fn()
    estimate_ms = max((time.perf_counter() - start) * 1000 / 5, 1e-6)
    n_warmup = max(1, int(warmup / estimate_ms))
    n_repeat = max(1, int(rep / estimate_ms))
    for _ in range(n_warmup):
        fn()
    times = []
    for _ in range(n_repeat):
        if grad_to_none is not None:
            for x in grad_to_none:
                x.grad = None
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    if quantiles is not None:
        ordered = sorted(times)
        out = [ordered[min(len(ordered) - 1, int(q * len(ordered)))] for q in quantiles]
        return out[0] if len(out) == 1 else out
    if return_mode == "all":
        return times
    return {"min": min, "max": max, "mean": statistics.fmean, "median": statistics.median}[return_mode](times)


def assert_close(x, y, atol=None, rtol=None, err_msg=""):
    """numpy.testing.assert_allclose with Triton's default tolerances."""
    import numpy as np
    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    np.testing.assert_allclose(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64),
                               atol=atol, rtol=rtol, err_msg=err_msg)
