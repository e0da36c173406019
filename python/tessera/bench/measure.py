"""Timing: medians over repetitions with warm-up excluded, and the last-level
cache flushed between repetitions when the data would otherwise stay in it.

Layer 4, api (python/tessera/__init__.py lists the layers)."""
import concurrent.futures
import ctypes
import os
import statistics
import time

import numpy as np


def last_level_cache_bytes():
    """The largest cache the kernel reports (sysfs), or 64 MiB if unknown."""
    best = 0
    base = "/sys/devices/system/cpu/cpu0/cache"
    try:
        for entry in os.listdir(base):
            with open(os.path.join(base, entry, "size")) as f:
                text = f.read().strip()
            scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1], 1)
            best = max(best, int(text.rstrip("KMG")) * scale)
    except OSError:
        pass
    return best or 64 << 20


class HostTimer:
    """Wall-clock timing of host work (kernel launches on the CPU target return
    when the kernel is done)."""

    def __init__(self, reps=30, min_time_s=0.3):
        self.reps = reps
        self.min_time_s = min_time_s
        self.llc = last_level_cache_bytes()
        self._flush_buf = None

    def flush(self):
        if self._flush_buf is None:
            self._flush_buf = np.empty(2 * self.llc // 8, dtype=np.float64)
        self._flush_buf.fill(1.0)

    def median_ms(self, fn, data_bytes):
        """Median time of fn() in ms; the cache is flushed before each rep
        when the data fits in the last-level cache."""
        flush = data_bytes < self.llc
        fn()  # warm-up: compiles, faults pages in
        fn()
        times = []
        deadline = time.perf_counter() + self.min_time_s
        while len(times) < self.reps or (time.perf_counter() < deadline and len(times) < 10 * self.reps):
            if flush:
                self.flush()
            start = time.perf_counter()
            fn()
            times.append((time.perf_counter() - start) * 1e3)
        return statistics.median(times)


_POOL = None


def parallel_copy(dst, src):
    """memcpy on every core: ctypes.memmove releases the GIL, and the pool
    persists so that no thread is started inside the timed region."""
    global _POOL
    threads = os.cpu_count() or 1
    if _POOL is None:
        _POOL = concurrent.futures.ThreadPoolExecutor(threads)
    nbytes = dst.nbytes
    step = ((nbytes + threads - 1) // threads + 63) // 64 * 64  # cache-line aligned chunks
    d, s = dst.ctypes.data, src.ctypes.data
    jobs = [_POOL.submit(ctypes.memmove, d + off, s + off, min(step, nbytes - off)) for off in range(0, nbytes, step)]
    for j in jobs:
        j.result()


class CopyCeiling:
    """The host's copy bandwidth (bytes read + written per second), measured
    again for every row, right after the row's kernel: on a shared machine
    the bandwidth drifts within a run, and a ratio needs both figures taken
    under the same conditions."""

    def __init__(self, timer):
        self.timer = timer
        self._cache = {}
        self._pool = None

    def gbps(self, nbytes):
        n = max(1, nbytes // 2 // 4)  # the copy reads and writes half each
        if n not in self._cache:
            src = np.ones(n, dtype=np.float32)
            self._cache[n] = (src, np.empty_like(src))  # buffers kept: page faults stay out of the timing
        src, dst = self._cache[n]
        ms = self.timer.median_ms(lambda: parallel_copy(dst, src), 2 * src.nbytes)
        return 2 * src.nbytes / ms * 1e-6
