"""Block pointers (tl.make_block_ptr / tl.advance) whose loads check every
dimension are descriptors' loads: on sm_90a their pipelined loop copies the
blocks by tensor maps built at launch (elsewhere, and where a map cannot
describe them, masked loads). Their stores likewise, by a tensor map from
shared memory, unless the kernel also reads the tensor (the map's writes
are not waited for) or checks fewer dimensions. A matmul against torch in
float64 with ragged shapes, a start offset, B either major, C stored
through a block pointer into a NaN-poisoned larger buffer."""

import os
import sys

import pytest

import tessera
import tessera.language as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_tma_cuda import _operands  # noqa: E402  (random operands in [-2, 2), B (n, k) when b_t)


@tessera.jit
def _block_ptr_mm(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_b, stride_cm, K0, BM: tl.constexpr,
                  BN: tl.constexpr, BK: tl.constexpr, B_T: tl.constexpr):
    # C = A[:, K0:] @ B[K0:, :], the k loop advancing both block pointers.
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    a_bp = tl.make_block_ptr(a_ptr, (M, K), (stride_am, 1), (pid_m * BM, K0), (BM, BK), (1, 0))
    if B_T:
        b_bp = tl.make_block_ptr(b_ptr, (N, K), (stride_b, 1), (pid_n * BN, K0), (BN, BK), (1, 0))
    else:
        b_bp = tl.make_block_ptr(b_ptr, (K, N), (stride_b, 1), (K0, pid_n * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), tl.float32)
    for _ in range(K0, K, BK):
        a = tl.load(a_bp, boundary_check=(0, 1), padding_option="zero")
        if B_T:
            acc = tl.dot(a, tl.load(b_bp, boundary_check=(0, 1)).T, acc)
            b_bp = tl.advance(b_bp, (0, BK))
        else:
            acc = tl.dot(a, tl.load(b_bp, boundary_check=(1, 0)), acc)
            b_bp = tl.advance(b_bp, (BK, 0))
        a_bp = tl.advance(a_bp, (0, BK))
    c_bp = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c_bp, acc.to(c_ptr.dtype.element_ty), boundary_check=(0, 1))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
@pytest.mark.parametrize("b_t", [False, True])
@pytest.mark.parametrize("block,num_warps", [((128, 128, 64), 4), ((64, 128, 32), 4), ((128, 256, 64), 8)])
@pytest.mark.parametrize("shape,k0", [((333, 312, 1000), 0), ((256, 512, 512), 64), ((200, 144, 80), 8)])
def test_block_pointer_matmul(torch, dtype, b_t, block, num_warps, shape, k0):
    m, n, k = shape
    bm, bn, bk = block
    if dtype == "float32":
        bk //= 2
    a, b = _operands(torch, dtype, m, n, k, b_t)
    # C's rows a whole number of 16 elements apart: its store may be a map's.
    full = torch.full((m + 40, n + 32 - n % 16), float("nan"), device="cuda")
    c = full[:m, :n]
    args = (a, b, c, m, n, k, a.stride(0), b.stride(0), c.stride(0), k0)
    meta = dict(BM=bm, BN=bn, BK=bk, B_T=b_t, num_warps=num_warps, num_stages=3)
    _block_ptr_mm[(tessera.cdiv(m, bm), tessera.cdiv(n, bn))](*args, **meta)
    A = a.double()[:, k0:]
    B = (b.double().t() if b_t else b.double())[k0:, :]
    err = ((c.double() - A @ B).abs() / (A.abs() @ B.abs() + 1e-30)).max().item()
    assert err < 2e-3, err
    outside = full.clone()
    outside[:m, :n] = float("nan")
    assert torch.isnan(outside).all(), "a store wrote outside C"
    ptx = _block_ptr_mm.compile_only("nvptx", *args, **meta).assembly
    # Strides the specialization knows to be multiples of 16: maps.
    if ".target sm_90a" in ptx:
        # By a map unless C's block would take over half the shared memory
        # (227 KiB on sm_90): 128x256 in fp32 is stored by pointers.
        by_map = bm * bn * c.element_size() * 2 <= 227 * 1024
        assert ("cp.async.bulk.tensor.2d.global.shared::cta" in ptx) == by_map
        if a.stride(0) % 16 == 0 and b.stride(0) % 16 == 0:
            assert "cp.async.bulk.tensor.2d.shared::cluster" in ptx


@tessera.jit
def _accumulate_mm(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, BM: tl.constexpr,
                   BN: tl.constexpr, BK: tl.constexpr, MODE: tl.constexpr):
    # C += A @ B with block pointers, C's block stored as MODE says.
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    a_bp = tl.make_block_ptr(a_ptr, (M, K), (stride_am, 1), (pid_m * BM, 0), (BM, BK), (1, 0))
    b_bp = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, 1), (0, pid_n * BN), (BK, BN), (1, 0))
    c_bp = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    acc = tl.zeros((BM, BN), tl.float32)
    for _ in range(0, K, BK):
        acc = tl.dot(tl.load(a_bp, boundary_check=(0, 1)), tl.load(b_bp, boundary_check=(0, 1)), acc)
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    if MODE == "read_back":
        acc += tl.load(c_bp, boundary_check=(0, 1)).to(tl.float32)
    if MODE == "rows_checked":  # N is a whole number of blocks here
        tl.store(c_bp, acc.to(c_ptr.dtype.element_ty), boundary_check=(0,))
    else:
        tl.store(c_bp, acc.to(c_ptr.dtype.element_ty), boundary_check=(0, 1))


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("mode", ["plain", "read_back", "rows_checked", "unaligned_rows"])
def test_block_pointer_stores_by_map_or_not(torch, dtype, mode):
    # C is right either way. Its store is a map's when plain; it stays a
    # pointer store when C is read back in the kernel (C += A @ B), checked
    # along the rows only, or when C's rows are 8 elements past a multiple
    # of 16 apart (no map can describe them).
    m, n, k = 200, 256 if mode == "rows_checked" else 176, 160
    a, b = _operands(torch, dtype, m, n, k, False)
    full = torch.full((m + 24, n + (8 if mode == "unaligned_rows" else 16)), float("nan"), device="cuda",
                      dtype=getattr(torch, dtype))
    c = full[:m, :n]
    c0 = (torch.rand((m, n), device="cuda") * 4 - 2).to(c.dtype)
    c.copy_(c0 if mode == "read_back" else torch.full_like(c, float("nan")))
    args = (a, b, c, m, n, k, a.stride(0), b.stride(0), c.stride(0))
    meta = dict(BM=64, BN=128, BK=32, MODE=mode, num_warps=4, num_stages=3)
    _accumulate_mm[(tessera.cdiv(m, 64), tessera.cdiv(n, 128))](*args, **meta)
    want = a.double() @ b.double() + (c0.double() if mode == "read_back" else 0)
    err = ((c.double() - want).abs() / (a.double().abs() @ b.double().abs() + 1)).max().item()
    assert err < 2e-3, err
    outside = full.clone()
    outside[:m, :n] = float("nan")
    assert torch.isnan(outside).all(), "a store wrote outside C"
    ptx = _accumulate_mm.compile_only("nvptx", *args, **meta).assembly
    sm90a = ".target sm_90a" in ptx
    assert ("cp.async.bulk.tensor.2d.global.shared::cta" in ptx) == (sm90a and mode == "plain")
    assert ("cp.async.bulk.tensor.2d.shared::cluster" in ptx) == sm90a


_NO_TORCH_SCRIPT = r'''
import sys
import numpy as np
import tessera
import tessera.language as tl


@tessera.jit
def copy_blocks(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    src = tl.make_block_ptr(x_ptr, (M, N), (N, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    dst = tl.make_block_ptr(y_ptr, (M, N), (N, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(dst, tl.load(src, boundary_check=(0, 1)) * 2 + 1, boundary_check=(0, 1))


m, n = 100, 96
x = np.random.default_rng(7).uniform(-2, 2, (m, n)).astype(np.float32)
xd = tessera.from_numpy(x, device="cuda")
yd = tessera.from_numpy(np.full((m, n), np.nan, np.float32), device="cuda")
args = (xd, yd, m, n)
copy_blocks[(tessera.cdiv(m, 32), tessera.cdiv(n, 32))](*args, BM=32, BN=32)
ptx = copy_blocks.compile_only("nvptx", *args, BM=32, BN=32).assembly
assert "torch" not in sys.modules
np.testing.assert_array_equal(yd.numpy(), x * 2 + 1)
print("map store:", "cp.async.bulk.tensor.2d.global.shared::cta" in ptx, ".target sm_90a" in ptx)
'''


def test_map_stores_in_a_process_without_torch(cuda_device, tmp_path):
    # Tensor maps are encoded at launch; without torch no context is current
    # on the launching thread until Tessera makes its own current, which it
    # must do before encoding them (CUDA_ERROR_INVALID_CONTEXT otherwise; the
    # conformance runner, which imports no torch, met it).
    import subprocess
    script = tmp_path / "no_torch.py"
    script.write_text(_NO_TORCH_SCRIPT)
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, TESSERA_ALWAYS_COMPILE="1"))
    assert r.returncode == 0, r.stderr[-3000:]
    stored_by_map, sm90a = (w == "True" for w in r.stdout.split("map store:")[1].split())
    assert stored_by_map == sm90a, r.stdout
