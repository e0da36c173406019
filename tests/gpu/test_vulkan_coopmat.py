"""Cooperative-matrix dots through Vulkan (VK_KHR_cooperative_matrix): fp16
and bf16 into f32, int8 into i32, on a Vulkan device whose driver lists
them (NVIDIA's on Hopper); the architecture the device reports carries its
table (sg32-48k-cm...), so @jit(target="vulkan") compiles dots onto
cooperative matrices. Ragged matrices on fresh random inputs, against numpy
in float64 (int64 for int8); each case also checks that its SPIR-V really
multiplies cooperative matrices. Skips without such a device (Mesa's
lavapipe has no cooperative matrices: there dots stay on the SIMT lanes)."""

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import _C


def _cooperative_arch():
    if "vulkan" not in _C.backend_names():
        return None
    arch = _C.device_architecture(_C.get_device("vulkan"))
    return arch if "-cm" in arch else None


ARCH = _cooperative_arch()
pytestmark = pytest.mark.skipif(ARCH is None, reason="no Vulkan device with VK_KHR_cooperative_matrix")


@tessera.jit(target="vulkan")
def _mm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, ACC: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), ACC)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0)
        b = tl.load(b_ptr + kk[:, None] * N + rn[None, :], mask=(kk[:, None] < K) & (rn[None, :] < N), other=0)
        acc += tl.dot(a, b, out_dtype=ACC)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def _inputs(rng, dtype, m, n, k):
    if dtype == "int8":
        return (rng.integers(-128, 128, (m, k)).astype(np.int8), rng.integers(-128, 128, (k, n)).astype(np.int8))
    if dtype == "bfloat16":
        import ml_dtypes
        t = ml_dtypes.bfloat16
    else:
        t = np.float16
    return rng.standard_normal((m, k)).astype(t), rng.standard_normal((k, n)).astype(t)


def _run(dtype, shape, block, num_warps, num_stages=None):
    m, n, k = shape
    bm, bn, bk = block
    a, b = _inputs(np.random.default_rng(), dtype, m, n, k)  # fresh inputs every run
    integer = dtype == "int8"
    c = tessera.from_numpy(np.full((m, n), -7 if integer else np.nan, np.int32 if integer else np.float32),
                           device="vulkan")
    da, db = tessera.from_numpy(a, device="vulkan"), tessera.from_numpy(b, device="vulkan")
    meta = dict(BM=bm, BN=bn, BK=bk, ACC=tl.int32 if integer else tl.float32, num_warps=num_warps,
                num_stages=num_stages)
    _mm[(tessera.cdiv(m, bm), tessera.cdiv(n, bn))](da, db, c, m, n, k, **meta)
    spirv = _mm.compile_only("vulkan", da, db, c, m, n, k, arch=ARCH, **meta).assembly
    assert "OpCooperativeMatrixMulAddKHR" in spirv, "the dot did not use cooperative matrices"
    wide = np.int64 if integer else np.float64
    ref = a.astype(wide) @ b.astype(wide)
    got = c.numpy()
    if integer:
        np.testing.assert_array_equal(got, ref)
    else:
        # Products of 16-bit floats are exact in f32; the f32 sums round at
        # most once per step of k (truncation on some matrix units).
        bound = (np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))) * k * 2.0**-22 + 1e-6
        assert np.all(np.abs(got - ref) <= bound), "max error %g" % np.max(np.abs(got - ref) - bound)


# Blocks whose operands and f32 accumulators fit 48 KiB of workgroup memory.
BLOCKS = [((64, 64, 32), 4), ((32, 64, 64), 2), ((64, 128, 32), 8), ((16, 16, 32), 1)]
SHAPES = [(333, 211, 170), (208, 144, 96), (300, 260, 1000), (1, 17, 33)]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "int8"])
@pytest.mark.parametrize("block,num_warps", BLOCKS)
@pytest.mark.parametrize("shape", SHAPES)
def test_matmul_ragged(dtype, shape, block, num_warps):
    if dtype == "bfloat16" and "bf16" not in ARCH:
        pytest.skip("the device has no bf16 cooperative matrices (VK_KHR_shader_bfloat16)")
    if dtype == "int8":
        block = (block[0], block[1], max(block[2], 32))  # k of 32 per int8 matrix
    _run(dtype, shape, block, num_warps)


@pytest.mark.parametrize("dtype", ["float16", "int8"])
def test_matmul_pipelined(dtype):
    # Two stages: the loop's operands come from stage buffers in workgroup memory.
    _run(dtype, (257, 129, 515), (64, 64, 32), 4, num_stages=2)
