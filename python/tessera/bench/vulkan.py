"""The benchmark on a device timed by its own timestamps (the registry's
"device_timestamps": the spirv target's Vulkan and OpenCL flavours): the
workloads' Tessera kernels on tessera arrays, timed with the device's
events, against a device-to-device copy of the same bytes on the same
device. No peers run there (Triton and torch have no Vulkan or OpenCL
backend): compare with the same kernels' rows on another target of the
same run (nvptx on NVIDIA, cpu beside Intel's OpenCL CPU runtime).

Layer 4, api (python/tessera/__init__.py lists the layers)."""
import statistics
import time

import tessera
import tessera.language as tl
from tessera import _C


@tessera.jit
def _copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst + offs, tl.load(src + offs, mask=mask), mask=mask)


class VulkanTimer:
    """Median device time per launch over groups of back-to-back launches
    between two timestamps (launches queue up in command buffers while the
    device is busy, so the groups measure the kernels, not the submissions),
    after warm_s seconds of the same launches: NVIDIA's Vulkan driver lowers
    the clocks within a few hundred ms of idling (the kernel then runs up to
    2.3x slower on the H200) and raises them again only under load."""

    def __init__(self, device, reps=20, groups=5, warm_s=0.3, backend="vulkan"):
        self.device, self.reps, self.groups, self.warm_s = device, reps, groups, warm_s
        self.backend = backend  # the device's name for tessera arrays
        self.stream = _C.Stream(device)

    def _group_ms(self, fn, reps):
        start, end = _C.Event(self.device), _C.Event(self.device)
        start.record(self.stream)
        for _ in range(reps):
            fn()
        end.record(self.stream)
        end.synchronize()
        return end.elapsed_ms(start) / reps

    def tune_ms(self, fn, reps=5):
        """A quick time for choosing among configurations (no warm-up of its own)."""
        return self._group_ms(fn, reps)

    def median_ms(self, fn, data_bytes):
        del data_bytes  # no cache flush: the shapes run here are far larger than any cache
        # Groups of at least ~20 ms, so that the device stays busy between
        # the host's waits, for warm_s and then until two groups agree within
        # 3% (the clocks settled), 2 s at most.
        t0, reps, last = time.perf_counter(), 2, None
        while True:
            ms = self._group_ms(fn, reps)
            elapsed = time.perf_counter() - t0
            settled = last is not None and abs(ms - last) <= 0.03 * last
            if elapsed >= 2.0 or (elapsed >= self.warm_s and settled):
                break
            last, reps = ms, min(1000, max(2, int(20 / max(ms, 1e-3))))
        return statistics.median(self._group_ms(fn, self.reps) for _ in range(self.groups))


class CopyCeiling:
    """Device-to-device copy bandwidth (bytes read + written per second) of
    the same number of bytes on the device: the faster of the driver's copy
    (vkCmdCopyBuffer, a DMA engine on NVIDIA: 850 GB/s on the H200;
    clEnqueueSVMMemcpy) and a copy kernel compiled here (16-byte loads and
    stores)."""

    DRIVER_COPY = {"vulkan": "vkCmdCopyBuffer", "opencl": "clEnqueueSVMMemcpy"}

    def __init__(self, timer):
        self.timer, self._cache = timer, {}

    def _measure(self, nbytes):
        n = max(1, nbytes // 2)
        if n not in self._cache:
            dev = self.timer.device
            src, dst = _C.Buffer(dev, n), _C.Buffer(dev, n)
            dma = 2 * n / self.timer.median_ms(lambda: dst.copy_from(src, n), 2 * n) * 1e-6
            words = max(1, n // 4)
            where = self.timer.backend
            a, b = tessera.zeros(words, "uint32", device=where), tessera.empty(words, "uint32", device=where)
            grid = (tessera.cdiv(words, 4096),)
            kernel = 8 * words / self.timer.median_ms(lambda: _copy_kernel[grid](a, b, words, BLOCK=4096), 8 * words) * 1e-6
            self._cache[n] = max((dma, self.DRIVER_COPY.get(where, "driver copy")), (kernel, "copy kernel"))
        return self._cache[n]

    def gbps(self, nbytes):
        return self._measure(nbytes)[0]

    def name(self, nbytes):
        return "memory copy (%s)" % self._measure(nbytes)[1]


def context(target, reps):
    """Timer and copy ceiling for a Vulkan or OpenCL target's rows, or why there are none."""
    backend = _C.find_target(target)[1].backend
    try:
        device = _C.get_device(backend)
    except _C.TesseraError as e:
        return str(e).splitlines()[0]
    timer = VulkanTimer(device, reps=max(10, min(reps, 50)), backend=backend)
    # A CPU's Vulkan (Mesa's lavapipe) or OpenCL (Intel's CPU runtime: its
    # device names end "CPU)") runs the host's shapes; a GPU the GPU ones.
    name = _C.device_name(device)
    on_cpu = "llvmpipe" in name or name.endswith("CPU)")
    return {"timer": timer, "copy": CopyCeiling(timer), "device": backend, "gpu_shapes": not on_cpu}
