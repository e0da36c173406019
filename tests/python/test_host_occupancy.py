"""The host as Triton's occupancy arithmetic sees it (tutorial 02 sizes its
persistent grid this way): a core is an SM with one program at a time; its
vector registers are shared by the program's warps (n_regs) and the
program's tiles live in its stack frame (metadata.shared)."""
import os

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C
from tessera.runtime import driver

pytestmark = pytest.mark.skipif(driver.active.get_current_target().backend != "cpu",
                                reason="the active device is not the host (a GPU machine's run)")


@tessera.jit
def row_softmax(out_ptr, in_ptr, stride, n_cols, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + tl.program_id(0) * stride + cols, mask=cols < n_cols, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + tl.program_id(0) * stride + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)


def test_host_properties_and_a_kernels_share_give_one_program_per_core():
    props = driver.active.utils.get_device_properties(0)
    assert props["warpSize"] == 1 and props["multiprocessor_count"] == os.cpu_count()
    assert props["max_num_regs"] in (64, 128, 512)  # 16 x 4 (SSE), 16 x 8 (AVX), 32 x 16 (AVX-512) lanes; or NEON's
    x = np.random.default_rng(1).standard_normal((8, 1000), dtype=np.float32)
    out = np.empty_like(x)
    for warps in (1, 4, 8):
        kernel = row_softmax.warmup(out, x, 1000, 1000, BLOCK=1024, num_warps=warps, grid=(8,))
        kernel._init_handles()
        assert kernel.n_regs == props["max_num_regs"] // warps
        assert props["max_num_regs"] // (kernel.n_regs * props["warpSize"] * warps) == 1
        # A 1024-element fp32 tile does not fit in registers: the frame holds it.
        assert 4096 <= kernel.metadata.shared <= props["max_shared_mem"]
        kernel[(8, 1, 1)](out, x, 1000, 1000, 1024)
        e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
        np.testing.assert_allclose(out, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)


def test_the_shared_bytes_attribute_is_the_frame_of_the_compiled_kernel():
    x = np.zeros(16, np.float32)

    @tessera.jit
    def small(x_ptr):
        tl.store(x_ptr + tl.arange(0, 16), tl.full((16,), 1.0, tl.float32))

    kernel = small.warmup(x, grid=(1,))
    assert kernel.attribute("shared_bytes") == kernel.metadata.shared < 4096
    assert _C.library().tessera_device_backend(kernel.device) == b"host"
