"""The same kernels through the spirv target on NVIDIA's Vulkan driver and
through nvptx on CUDA, timed on the device (Vulkan timestamps, CUDA events)
over back-to-back launches: a first look at the Vulkan path's speed. Not the
bench CLI (which has no Vulkan rows yet)."""

import ctypes

import numpy as np

import tessera
import tessera.language as tl
from tessera import _C


def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def softmax(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)


def device_ms(launch, device, reps=50):
    """Milliseconds per launch between two events on the device's default stream."""
    lib = _C.library()
    vp = ctypes.c_void_p
    lib.tessera_event_create.argtypes = [vp, ctypes.POINTER(vp)]
    lib.tessera_event_record.argtypes = [vp, vp]
    lib.tessera_event_synchronize.argtypes = [vp]
    lib.tessera_event_elapsed_ms.argtypes = [vp, vp, ctypes.POINTER(ctypes.c_double)]
    events = [vp(), vp()]
    for e in events:
        assert lib.tessera_event_create(device, ctypes.byref(e)) == 0, _C.library().tessera_last_error()
    stream = _C.Stream(device)  # created streams wait for the default (legacy) one on CUDA; Vulkan has one queue
    launch()
    lib.tessera_event_record(events[0], stream.handle)
    for _ in range(reps):
        launch()
    lib.tessera_event_record(events[1], stream.handle)
    lib.tessera_event_synchronize(events[1])
    ms = ctypes.c_double()
    assert lib.tessera_event_elapsed_ms(events[0], events[1], ctypes.byref(ms)) == 0, lib.tessera_last_error()
    return ms.value / reps


def main():
    vk_dev = _C.get_device("vulkan")
    print("vulkan device:", _C.device_name(vk_dev), "subgroup size", _C.device_attribute(vk_dev, "warpSize"))
    has_cuda = "cuda" in _C.backend_names()
    rng = np.random.default_rng(0)
    n = int(__import__("os").environ.get("N", 1 << 26))
    a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    rows, cols = 4 * 4096, 4096
    s = rng.standard_normal((rows, cols)).astype(np.float32)
    for name, fn, make, grid, kw, nbytes in [
            ("vector_add", add, lambda dev: [a, b, np.empty_like(a)], (n // 1024,), dict(BLOCK=1024), 3 * 4 * n),
            ("softmax", softmax, lambda dev: [s, np.empty_like(s)], (rows,), dict(BLOCK=4096, num_warps=8),
             2 * 4 * rows * cols)]:
        times = {}
        for target, device in (("vulkan", "vulkan"), ("nvptx", "cuda")) if has_cuda else (("vulkan", "vulkan"),):
            k = tessera.jit(target=target)(fn)
            host = make(device)
            args = [tessera.from_numpy(h, device=device) for h in host]
            extra = [n] if name == "vector_add" else [cols]
            launch = lambda: k[grid](*args, *extra, **kw)  # noqa: E731
            times[target] = device_ms(launch, args[0]._buffer.device)
            result = args[-1].numpy()
            ref = (a + b) if name == "vector_add" else np.exp(s - s.max(1, keepdims=True)) / np.exp(
                s - s.max(1, keepdims=True)).sum(1, keepdims=True)
            assert np.allclose(result, ref, rtol=1e-5, atol=1e-6), (name, target)
        gbs = {t: nbytes / (ms * 1e-3) / 1e9 for t, ms in times.items()}
        if not has_cuda:
            print("%-11s vulkan %.4f ms (%.1f GB/s)" % (name, times["vulkan"], gbs["vulkan"]))
            continue
        print("%-11s vulkan %.4f ms (%.0f GB/s)  cuda %.4f ms (%.0f GB/s)  vulkan/cuda speed %.2fx" % (
            name, times["vulkan"], gbs["vulkan"], times["nvptx"], gbs["nvptx"], times["nvptx"] / times["vulkan"]))


if __name__ == "__main__":
    main()
