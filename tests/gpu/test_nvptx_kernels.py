"""Kernels compiled by the nvptx target, run on the GPU against torch in
higher precision: the cases the conformance corpus does not stress (big
tiles that need more than 48 KB of shared memory, every num_warps, 2-D
layouts, ragged edges, tessera arrays without torch, printing)."""

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera.bench import workloads as W


@pytest.mark.parametrize("num_warps", [1, 2, 4, 8, 16, 32])
def test_softmax_every_num_warps_ragged_rows(torch, num_warps):
    m, n = 37, 1000  # n is not a power of two: the masked tail of each row
    x = torch.randn(m, n, device="cuda")
    out = torch.full_like(x, float("nan"))
    W._softmax_kernel[(m,)](out, x, n, n, m, n, BLOCK=1024, num_warps=num_warps)
    torch.testing.assert_close(out.double(), torch.softmax(x.double(), dim=1), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "float16"])
def test_layernorm(torch, dtype):
    t = getattr(torch, dtype)
    m, n = 64, 3000
    x = torch.randn(m, n, device="cuda", dtype=t)
    w, b = torch.rand(n, device="cuda", dtype=t), torch.rand(n, device="cuda", dtype=t)
    out = torch.full_like(x, float("nan"))
    W._layernorm_kernel[(m,)](x, out, w, b, n, n, 1e-5, BLOCK=4096, num_warps=8)
    ref = torch.nn.functional.layer_norm(x.double(), (n,), w.double(), b.double(), 1e-5)
    tol = 1e-5 if dtype == "float32" else 2e-2
    torch.testing.assert_close(out.double(), ref, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype,block", [("float32", (128, 128, 64)), ("float16", (64, 64, 32)),
                                         ("bfloat16", (128, 64, 32))])
def test_matmul_ragged_and_big_tiles(torch, dtype, block):
    # 128x128x64 fp32 tiles put 64 KB of operands in shared memory: the launch
    # must opt into more than the default 48 KB.
    t = getattr(torch, dtype)
    m, n, k = 300, 200, 150
    a, b = torch.randn(m, k, device="cuda", dtype=t), torch.randn(k, n, device="cuda", dtype=t)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=t)
    bm, bn, bk = block
    grid = (tessera.cdiv(m, bm) * tessera.cdiv(n, bn),)
    args = (a, b, c, m, n, k, k, 1, n, 1, n, 1)
    meta = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=4)
    W._matmul_kernel[grid](*args, **meta)
    ref = a.double() @ b.double()
    tol = 5e-3 if dtype == "float32" else 3e-2  # fp32 dots use tf32 tensor cores (Triton's default)
    torch.testing.assert_close(c.double(), ref, rtol=tol, atol=tol * k ** 0.5)
    if dtype == "float32":
        assert W._matmul_kernel.compile_only("nvptx", *args, **meta).shared_memory > 48 * 1024


@tessera.jit
def _transpose_kernel(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=mask)
    tl.store(out_ptr + rn[None, :] * M + rm[:, None], x, mask=mask)


def test_2d_transpose_through_a_layout_conversion(torch):
    m, n = 333, 517
    x = torch.randn(m, n, device="cuda")
    out = torch.full((n, m), float("nan"), device="cuda")
    _transpose_kernel[(tessera.cdiv(m, 64), tessera.cdiv(n, 32))](x, out, m, n, BM=64, BN=32)
    torch.testing.assert_close(out, x.t(), rtol=0, atol=0)


@tessera.jit
def _cumsum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.store(out_ptr + offs, tl.cumsum(x, axis=0), mask=offs < n)


def test_scan_with_tessera_arrays_and_no_torch(cuda_device):
    n = 3000
    x = np.random.default_rng(5).integers(-100, 100, n).astype(np.int32)
    dx = tessera.from_numpy(x, device="cuda")
    out = tessera.from_numpy(np.full(n, -7, np.int32), device="cuda")
    _cumsum_kernel[(1,)](dx, out, n, BLOCK=4096)
    np.testing.assert_array_equal(out.numpy(), np.cumsum(x))


@tessera.jit
def _atomic_hist_kernel(x_ptr, hist_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.atomic_add(hist_ptr + v, 1, mask=offs < n)


def test_atomics_from_many_programs(torch):
    n = 1 << 20
    x = torch.randint(0, 64, (n,), device="cuda", dtype=torch.int32)
    hist = torch.zeros(64, device="cuda", dtype=torch.int32)
    _atomic_hist_kernel[(tessera.cdiv(n, 1024),)](x, hist, n, BLOCK=1024)
    assert torch.equal(hist, torch.bincount(x, minlength=64).to(torch.int32))


def test_a_kernel_inside_a_torch_program_shares_its_stream(torch):
    n = 1 << 22
    x = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        y = x * 2  # queued on s before the kernel
        W._add_kernel[(tessera.cdiv(n, 1024),)](y, y, out, n, BLOCK=1024)
        z = out + 1  # queued after it
    s.synchronize()
    torch.testing.assert_close(z, x * 4 + 1)


@pytest.mark.parametrize("dtype", ["bfloat16", "float32"])
def test_attention_ragged_sequence(torch, dtype):
    t = getattr(torch, dtype)
    bh, s, d = 6, 1000, 64
    q, k, v = (torch.randn(bh, s, d, device="cuda", dtype=t) for _ in range(3))
    out = torch.full_like(q, float("nan"))
    W._attention_kernel[(tessera.cdiv(s, 64), bh)](q, k, v, out, d ** -0.5, s, s * d, d, D=d, BLOCK_M=64, BLOCK_N=32)
    ref = torch.nn.functional.scaled_dot_product_attention(q.double()[None], k.double()[None], v.double()[None])[0]
    tol = 5e-3 if dtype == "float32" else 2e-2  # tf32 dots in fp32, as Triton's
    torch.testing.assert_close(out.double(), ref, rtol=tol, atol=tol)


@tessera.jit
def _scan2d_kernel(x_ptr, out_ptr, rev_ptr, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], tl.cumsum(x, axis=AXIS))
    tl.store(rev_ptr + rm[:, None] * N + rn[None, :], tl.cumsum(x, axis=AXIS, reverse=True))


@pytest.mark.parametrize("num_warps", [1, 2, 8, 16])
@pytest.mark.parametrize("shape,axis", [((64, 256), 1), ((256, 64), 0), ((1, 4096), 1), ((4096, 1), 0)])
def test_scans_over_registers_lanes_and_warps(torch, num_warps, shape, axis):
    m, n = shape
    x = torch.randint(-1000, 1000, (m, n), device="cuda", dtype=torch.int32)
    out = torch.full_like(x, -7)
    rev = torch.full_like(x, -7)
    _scan2d_kernel[(1,)](x, out, rev, M=m, N=n, AXIS=axis, num_warps=num_warps)
    assert torch.equal(out, torch.cumsum(x, dim=axis).to(torch.int32))
    assert torch.equal(rev, torch.flip(torch.cumsum(torch.flip(x, [axis]), dim=axis), [axis]).to(torch.int32))


@tessera.jit(debug=True)
def _checked_copy(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs) * 3)  # unmasked


def test_checked_mode_reports_an_unmasked_load_out_of_bounds(torch):
    from tessera._checked import OutOfBoundsError
    x = torch.randn(1000, device="cuda")
    whole = torch.full((1024 + 64,), -7.0, device="cuda")
    y = whole[32:32 + 1024]
    with pytest.raises(OutOfBoundsError) as e:
        _checked_copy[(8,)](x, y, BLOCK=128)
    msg = str(e.value)
    assert "kernel '_checked_copy': out-of-bounds load through argument 'x_ptr'" in msg, msg
    assert "test_nvptx_kernels.py" in msg and "byte offset 4000 is outside its 4000-byte buffer" in msg, msg
    assert "program (7, 0, 0)" in msg, msg
    torch.testing.assert_close(y[:1000], x * 3)
    assert (whole[:32] == -7).all() and (whole[32 + 1024:] == -7).all()
    # The context survives (no device assertion): the next launch runs and is checked again.
    _checked_copy[(7,)](x[:896], y[:896], BLOCK=128)
    torch.testing.assert_close(y[:896], x[:896] * 3)


@tessera.jit
def _unrolled_fold(x_ptr, out_ptr, lb, ub, step, UNROLL: tl.constexpr, BLOCK: tl.constexpr):
    # An order-dependent fold of rows x[lb:ub:step] per lane, carrying two
    # values: a wrong iteration, order or count changes the result.
    offs = tl.arange(0, BLOCK)
    h = tl.zeros((BLOCK,), tl.int32) + 7
    count = tl.zeros((BLOCK,), tl.int32)
    for i in tl.range(lb, ub, step, loop_unroll_factor=UNROLL):
        h = (h * 31 + tl.load(x_ptr + i * BLOCK + offs)) % 1000003
        count += 1
    tl.store(out_ptr + offs, h)
    tl.store(out_ptr + BLOCK + offs, count)


@pytest.mark.parametrize("unroll", [1, 2, 3, 4])
@pytest.mark.parametrize("lb,ub,step", [(0, 0, 1), (5, 2, 1), (0, 1, 1), (0, 2, 1), (0, 3, 1), (0, 8, 1), (3, 17, 2),
                                        (2, 11, 3), (0, 37, 1)])
def test_loop_unroll_factor_every_trip_count(torch, unroll, lb, ub, step):
    block = 64
    x = torch.randint(0, 1000, (40 * block,), device="cuda", dtype=torch.int32)
    out = torch.full((2 * block,), -1, device="cuda", dtype=torch.int32)
    _unrolled_fold[(1,)](x, out, lb, ub, step, UNROLL=unroll, BLOCK=block)
    rows = x.view(40, block).cpu().tolist()
    h, count = [7] * block, 0
    for i in range(lb, ub, step):
        h = [(v * 31 + r) % 1000003 for v, r in zip(h, rows[i])]
        count += 1
    assert out[:block].cpu().tolist() == h
    assert out[block:].cpu().tolist() == [count] * block
