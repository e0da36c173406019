"""A config that fits in Triton's shared-memory budget of its stages compiles
on sm_90a: pipelined loops keep a spare stage entry (wgmma reads a stage one
iteration late) only where the loop's own buffers fit, and a kernel that then
needs more than the target has is compiled again without spares, as
xformers' tiled matmul (fp32, 128x256x32, 3 stages, 8 warps) needs; it
failed with OutOfResources where Triton runs it."""
import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C

pytestmark = pytest.mark.skipif(not _C.target_available("nvptx"), reason="no nvptx code generator in this build")


@tessera.jit
def _selected_operands(a1, a2, b1, b2, c_ptr, K1, K2, sam, sak, sbk, sbn, BM: tl.constexpr, BN: tl.constexpr,
                       BK: tl.constexpr):
    rm, rn = tl.arange(0, BM), tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    g1, g2 = tl.cdiv(K1, BK), tl.cdiv(K2, BK)
    for tile in range(0, g1 + g2):  # one loop over two matrices' k tiles, as xformers' tiled matmul
        A, B = tl.where(tile < g1, a1, a2), tl.where(tile < g1, b1, b2)
        rk = tl.where(tile < g1, tile, tile - g1) * BK + tl.arange(0, BK)
        acc += tl.dot(tl.load(A + rm[:, None] * sam + rk[None, :] * sak),
                      tl.load(B + rk[:, None] * sbk + rn[None, :] * sbn), allow_tf32=False)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


def test_stages_within_triton_s_budget_fit_on_sm90():
    a, b, c = np.empty((128, 512), np.float32), np.empty((512, 256), np.float32), np.empty((128, 256), np.float32)
    shared = {}
    for warps in (4, 8):
        shared[warps] = _selected_operands.compile_only(
            "nvptx", a, a, b, b, c, 512, 512, 512, 1, 256, 1, BM=128, BN=256, BK=32, num_warps=warps, num_stages=3,
            arch="sm_90a").shared_memory
    assert shared[8] <= 232448  # sm_90a's opt-in limit; with a spare entry it needed 245760
    assert shared[8] == shared[4]  # compiled again without the spare (4 warps keep none)
