"""The benchmark on a Vulkan device (the spirv target): the workloads'
Tessera kernels on tessera arrays, timed with Vulkan timestamps, against a
device-to-device copy of the same bytes on the same device. No peers run
there (Triton and torch have no Vulkan backend): compare with the same
kernels' rows on another target of the same run (nvptx on NVIDIA)."""
import statistics

from tessera import _C


class VulkanTimer:
    """Median device time per launch over groups of back-to-back launches
    between two timestamps (launches queue up in command buffers while the
    device is busy, so the groups measure the kernels, not the submissions)."""

    def __init__(self, device, reps=20, groups=5):
        self.device, self.reps, self.groups = device, reps, groups
        self.stream = _C.Stream(device)

    def median_ms(self, fn, data_bytes):
        del data_bytes  # no cache flush: the shapes run here are far larger than any cache
        fn()
        fn()
        times = []
        for _ in range(self.groups):
            start, end = _C.Event(self.device), _C.Event(self.device)
            start.record(self.stream)
            for _ in range(self.reps):
                fn()
            end.record(self.stream)
            end.synchronize()
            times.append(end.elapsed_ms(start) / self.reps)
        return statistics.median(times)


class CopyCeiling:
    """Device-to-device copy bandwidth (bytes read + written per second) of
    the same number of bytes on the Vulkan device (vkCmdCopyBuffer)."""

    def __init__(self, timer):
        self.timer, self._cache = timer, {}

    def gbps(self, nbytes):
        n = max(1, nbytes // 2)
        if n not in self._cache:
            src, dst = _C.Buffer(self.timer.device, n), _C.Buffer(self.timer.device, n)
            ms = self.timer.median_ms(lambda: dst.copy_from(src, n), 2 * n)
            self._cache[n] = 2 * n / ms * 1e-6
        return self._cache[n]


def context(target, reps):
    """Timer and copy ceiling for a Vulkan target's rows, or why there are none."""
    try:
        device = _C.get_device(_C.find_target(target)[1].backend)
    except _C.TesseraError as e:
        return str(e).splitlines()[0]
    timer = VulkanTimer(device, reps=max(10, min(reps, 50)))
    # A CPU's Vulkan (Mesa's lavapipe) runs the host's shapes; a GPU the GPU ones.
    on_cpu = "llvmpipe" in _C.device_name(device)
    return {"timer": timer, "copy": CopyCeiling(timer), "device": "vulkan", "gpu_shapes": not on_cpu}
