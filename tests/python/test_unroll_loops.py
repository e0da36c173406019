"""tl.range's loop_unroll_factor on the targets that unroll at the tile level
(the unroll-loops pass: cpu, and spirv on Vulkan): every trip count around
the factor, with bounds and steps that do not divide, gives the loop's own
result. (nvptx and amdgpu unroll in their thread emitter: tests/ir/nvptx/
unroll.py, tests/gpu/test_nvptx_kernels.py; the pass's own output:
tests/ir/unroll-loops.tir, tests/ir/cpu/unroll.py.) On Vulkan the numpy
arrays are copied to the device and back by the launch."""

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C


def _fold(x_ptr, out_ptr, lb, ub, step, base, UNROLL: tl.constexpr, BLOCK: tl.constexpr):
    # An order-dependent fold of rows x[lb:ub:step] per lane, carrying two
    # values: a wrong iteration, order or count changes the result.
    offs = tl.arange(0, BLOCK)
    h = tl.zeros((BLOCK,), tl.int32) + 7
    count = tl.zeros((BLOCK,), tl.int32)
    for i in tl.range(lb, ub, step, loop_unroll_factor=UNROLL):
        h = (h * 31 + tl.load(x_ptr + (i - base + 8) * BLOCK + offs)) % 1000003
        count += 1
    tl.store(out_ptr + offs, h)
    tl.store(out_ptr + BLOCK + offs, count)


TARGETS = ["cpu", pytest.param("vulkan", marks=pytest.mark.skipif(
    "vulkan" not in _C.backend_names(), reason="no Vulkan device (ci/bootstrap.sh installs Mesa's lavapipe)"))]
KERNELS = {}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("unroll", [1, 2, 3, 4])
@pytest.mark.parametrize("lb,ub,step", [(0, 0, 1), (5, 2, 1), (0, 1, 1), (0, 2, 1), (0, 3, 1), (0, 8, 1), (3, 17, 2),
                                        (2, 11, 3), (0, 37, 1), (-8, 5, 3), (-7, -1, 1)])
@pytest.mark.parametrize("base", [0, 1 << 33])  # 64-bit bounds past 2^32
def test_loop_unroll_factor_every_trip_count(target, unroll, lb, ub, step, base):
    if target not in KERNELS:
        KERNELS[target] = tessera.jit(target=target)(_fold)
    block = 16
    x = np.random.default_rng([unroll, lb + 100, ub + 100, step]).integers(0, 1000, (48, block), dtype=np.int32)
    out = np.full(2 * block, -1, np.int32)
    KERNELS[target][(1,)](x, out, lb + base, ub + base, step, base, UNROLL=unroll, BLOCK=block)
    h, count = [7] * block, 0
    for i in range(lb, ub, step):
        h = [(v * 31 + int(r)) % 1000003 for v, r in zip(h, x[i + 8])]
        count += 1
    assert out[:block].tolist() == h
    assert out[block:].tolist() == [count] * block

