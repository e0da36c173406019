"""Dots on tensor cores (mma.sync and ldmatrix; wgmma on sm_90a), on the GPU against torch in
float64: every input type the MMA table has, ragged matrices, operands
whose contiguous dimension is not k (ldmatrix .trans), every warp count,
accumulators in f16, batched dots and chained dots (attention). Each case
also checks that its PTX really uses the tensor cores."""

import os

import pytest

import tessera
import tessera.language as tl
from tessera.bench import workloads as W


@tessera.jit
def _mm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, ACC: tl.constexpr = tl.float32):
    # Ragged edges by masks (no wrap-around), so the loads keep the operands'
    # contiguous dimension and ldmatrix sees both orders.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), ACC)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * stride_am + kk[None, :] * stride_ak, mask=(rm[:, None] < M) & (kk[None, :] < K),
                    other=0)
        b = tl.load(b_ptr + kk[:, None] * stride_bk + rn[None, :] * stride_bn, mask=(kk[:, None] < K) & (rn[None, :] < N),
                    other=0)
        acc = tl.dot(a, b, acc, out_dtype=ACC)  # Triton asserts acc's dtype is out_dtype
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def _matmul(torch, a, b, block, num_warps=4, a_t=False, b_t=False, num_stages=None):
    """C = A B with A given as (m, k) or, when a_t, as the transpose of a (k, m) tensor; same for B."""
    m, k = (a.shape[1], a.shape[0]) if a_t else a.shape
    n = b.shape[0] if b_t else b.shape[1]
    integer = not a.dtype.is_floating_point
    c = torch.full((m, n), -7 if integer else float("nan"), device="cuda", dtype=torch.int32 if integer else torch.float32)
    sam, sak = (1, m) if a_t else (k, 1)
    sbk, sbn = (1, k) if b_t else (n, 1)
    bm, bn, bk = block
    args = (a, b, c, m, n, k, sam, sak, sbk, sbn)
    meta = dict(BM=bm, BN=bn, BK=bk, num_warps=num_warps, num_stages=num_stages, ACC=tl.int32 if integer else tl.float32)
    _mm_kernel[(tessera.cdiv(m, bm), tessera.cdiv(n, bn))](*args, **meta)
    return c, _mm_kernel.compile_only("nvptx", *args, **meta).assembly


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("a_t,b_t", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("block,num_warps", [((128, 128, 32), 4), ((64, 128, 64), 8), ((32, 32, 16), 1),
                                             ((16, 64, 32), 2), ((128, 64, 16), 8), ((256, 128, 64), 8)])
@pytest.mark.parametrize("shape", [(333, 211, 170), (208, 144, 96), (300, 260, 1000)])  # unaligned; ragged; long k
def test_matmul_16bit_ragged_transposed(torch, dtype, a_t, b_t, block, num_warps, shape):
    t = getattr(torch, dtype)
    m, n, k = shape
    a = torch.randn((k, m) if a_t else (m, k), device="cuda", dtype=t)
    b = torch.randn((n, k) if b_t else (k, n), device="cuda", dtype=t)
    c, ptx = _matmul(torch, a, b, block, num_warps, a_t, b_t)
    A, B = (a.t() if a_t else a).double(), (b.t() if b_t else b).double()
    torch.testing.assert_close(c.double(), A @ B, rtol=1e-3, atol=1e-3 * k ** 0.5)
    if _wgmma_expected(ptx, block, num_warps):
        # Hopper: operands read in place from the pipelined stages, m/n-major
        # ones through the transpose immediates; one group left in flight.
        assert "ldmatrix" not in ptx and "mma.sync" not in ptx
        insts = [l for l in ptx.splitlines() if "wgmma.mma_async" in l]
        assert insts and all(l.rstrip().endswith(", %d, %d;" % (int(a_t), int(not b_t))) for l in insts), insts[:1]
        assert "wgmma.wait_group.sync.aligned 1;" in ptx
    else:
        assert "mma.sync.aligned.m16n8k16" in ptx and "ldmatrix" in ptx
        assert (".trans.shared.b16" in ptx) == (a_t or not b_t)


def _wgmma_expected(ptx, block, num_warps):
    """wgmma on sm_90a when the warps stack along m (16 rows per warp) and
    the stages arrive by async copies (not staged through registers)."""
    staged = os.environ.get("TESSERA_PIPELINE_REGISTERS") == "1"
    return ".target sm_90a" in ptx and not staged and num_warps % 4 == 0 and block[0] % (16 * num_warps) == 0


@pytest.mark.parametrize("precision,tol", [("tf32", 3e-3), ("tf32x3", 2e-5)])
def test_matmul_f32_on_tensor_cores(torch, precision, tol):
    m, n, k = 257, 190, 300
    a, b = torch.randn(m, k, device="cuda"), torch.randn(k, n, device="cuda")
    c = torch.full((m, n), float("nan"), device="cuda")
    _precision_kernel[(tessera.cdiv(m, 64), tessera.cdiv(n, 64))](a, b, c, m, n, k, BM=64, BN=64, BK=32,
                                                                  PRECISION=precision)
    ref = a.double() @ b.double()
    err = ((c.double() - ref).abs() / (a.double().abs() @ b.double().abs())).max().item()
    assert err < tol, err
    ptx = _precision_kernel.compile_only("nvptx", a, b, c, m, n, k, BM=64, BN=64, BK=32, PRECISION=precision).assembly
    if precision == "tf32" and _wgmma_expected(ptx, (64, 64, 32), 4):
        # B n-major: C^T = B^T A^T, B^T from registers (wgmma's register A).
        assert "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {" in ptx and "mma.sync" not in ptx
        assert any("wgmma.mma_async" in l and "}, {%r" in l for l in ptx.splitlines())
    else:
        assert "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32" in ptx
    if precision == "tf32x3":
        assert ptx.count("mma.sync") >= 3 * 16  # three products per instruction tile


@tessera.jit
def _precision_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                      PRECISION: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :], mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K),
                    other=0.0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * N + rn[None, :], mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N),
                    other=0.0)
        acc = tl.dot(a, b, acc, input_precision=PRECISION)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@tessera.jit
def _small_dot_kernel(a_ptr, b_ptr, c_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                      OUT: tl.constexpr, ACC: tl.constexpr):
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    if ACC:
        r = tl.dot(a, b, acc=tl.load(c_ptr + rm[:, None] * N + rn[None, :]), out_dtype=OUT)
    else:
        r = tl.dot(a, b, out_dtype=OUT)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], r)


@pytest.mark.parametrize("num_warps", [1, 4, 8])
def test_int8_to_int32_exact(torch, num_warps):
    M, N, K = 64, 32, 128
    a = torch.randint(-128, 128, (M, K), device="cuda", dtype=torch.int8)
    b = torch.randint(-128, 128, (K, N), device="cuda", dtype=torch.int8)
    c = torch.randint(-1000, 1000, (M, N), device="cuda", dtype=torch.int32)
    out = torch.full((M, N), -7, device="cuda", dtype=torch.int32)
    _small_dot_kernel[(1,)](a, b, c, out, M=M, N=N, K=K, OUT=tl.int32, ACC=True, num_warps=num_warps)
    ref = a.cpu().long() @ b.cpu().long() + c.cpu().long()  # CUDA has no int64 matmul
    assert torch.equal(out.cpu(), ref.int())
    ptx = _small_dot_kernel.compile_only("nvptx", a, b, c, out, M=M, N=N, K=K, OUT=tl.int32, ACC=True,
                                         num_warps=num_warps).assembly
    assert "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32" in ptx


def test_int8_sums_saturate_as_triton(torch):
    # An accumulator near the ends of int32 plus products that push it past
    # them: the tensor cores clamp (.satfinite), as Triton's do (ir/IR.h).
    M, N, K = 32, 32, 64
    a = torch.full((M, K), 127, device="cuda", dtype=torch.int8)
    a[:, ::2] = torch.randint(-128, 128, (M, K // 2), device="cuda", dtype=torch.int8)
    b = torch.full((K, N), 127, device="cuda", dtype=torch.int8)
    b[:, : N // 2] = -127
    top, bottom = 2**31 - 1, -(2**31)
    c = torch.randint(-1000, 1000, (M, N), device="cuda", dtype=torch.int32)
    c[: M // 2] = top - 5
    c[M // 2 :] = bottom + 5
    out = torch.full((M, N), -7, device="cuda", dtype=torch.int32)
    _small_dot_kernel[(1,)](a, b, c, out, M=M, N=N, K=K, OUT=tl.int32, ACC=True)
    ref = (a.cpu().long() @ b.cpu().long() + c.cpu().long()).clamp(bottom, top)
    assert torch.equal(out.cpu().long(), ref)
    assert (ref == top).any() and (ref == bottom).any()


def test_f16_accumulator(torch):
    M, N, K = 32, 64, 64
    a = torch.rand(M, K, device="cuda", dtype=torch.float16)
    b = torch.rand(K, N, device="cuda", dtype=torch.float16)
    c = torch.rand(M, N, device="cuda", dtype=torch.float16)
    out = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
    _small_dot_kernel[(1,)](a, b, c, out, M=M, N=N, K=K, OUT=tl.float16, ACC=True)
    ref = a.double() @ b.double() + c.double()
    torch.testing.assert_close(out.double(), ref, rtol=5e-3, atol=5e-2)
    ptx = _small_dot_kernel.compile_only("nvptx", a, b, c, out, M=M, N=N, K=K, OUT=tl.float16, ACC=True).assembly
    assert "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16" in ptx


@tessera.jit
def _batched_kernel(a_ptr, b_ptr, out_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rb, rm, rn, rk = tl.arange(0, B), tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + rb[:, None, None] * M * K + rm[None, :, None] * K + rk[None, None, :])
    b = tl.load(b_ptr + rb[:, None, None] * K * N + rk[None, :, None] * N + rn[None, None, :])
    tl.store(out_ptr + rb[:, None, None] * M * N + rm[None, :, None] * N + rn[None, None, :], tl.dot(a, b))


def test_batched_bf16(torch):
    B, M, N, K = 2, 32, 16, 32
    a = torch.randn(B, M, K, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(B, K, N, device="cuda", dtype=torch.bfloat16)
    out = torch.full((B, M, N), float("nan"), device="cuda")
    _batched_kernel[(1,)](a, b, out, B=B, M=M, N=N, K=K)
    torch.testing.assert_close(out.double(), a.double() @ b.double(), rtol=1e-3, atol=1e-2)
    assert "mma.sync" in _batched_kernel.compile_only("nvptx", a, b, out, B=B, M=M, N=N, K=K).assembly


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("d,block_m,block_n,num_warps,causal", [(64, 128, 64, 4, False), (128, 64, 32, 4, True),
                                                                 (128, 128, 64, 8, False), (64, 64, 64, 4, True)])
def test_attention_chained_dots(torch, dtype, d, block_m, block_n, num_warps, causal):
    t = getattr(torch, dtype)
    bh, s = 3, 300
    q, k, v = (torch.randn(bh, s, d, device="cuda", dtype=t) for _ in range(3))
    out = torch.full_like(q, float("nan"))
    args = (q, k, v, out, d ** -0.5, s, s * d, d)
    meta = dict(D=d, BLOCK_M=block_m, BLOCK_N=block_n, CAUSAL=causal, num_warps=num_warps)
    W._attention_kernel[(tessera.cdiv(s, block_m), bh)](*args, **meta)
    ref = torch.nn.functional.scaled_dot_product_attention(q.double(), k.double(), v.double(), is_causal=causal)
    torch.testing.assert_close(out.double(), ref, rtol=2e-2, atol=2e-2)
    ptx = W._attention_kernel.compile_only("nvptx", *args, **meta).assembly
    if ".target sm_90a" in ptx and os.environ.get("TESSERA_PIPELINE_REGISTERS") != "1":
        # Both dots on wgmma, B (K^T, then V) read in place from their
        # pipelined stages: Q (made before the loop) kept in shared memory
        # and read there too, P (made in the loop) from registers.
        insts = [l for l in ptx.splitlines() if "wgmma.mma_async" in l]
        from_registers = [l for l in insts if ", {%r" in l]
        assert from_registers and len(from_registers) < len(insts) and "mma.sync" not in ptx, insts[:1]
    else:
        assert ptx.count("mma.sync") >= 2


@pytest.mark.parametrize("a_dtype,b_dtype", [("float8_e4m3fn", "float8_e4m3fn"), ("float8_e5m2", "float8_e5m2"),
                                             ("float8_e4m3fn", "float8_e5m2"), ("float8_e5m2", "float8_e4m3fn")])
@pytest.mark.parametrize("a_t,b_t", [(False, False), (True, True)])
@pytest.mark.parametrize("block,num_warps", [((64, 64, 64), 4), ((128, 64, 32), 8)])
def test_matmul_fp8_ragged(torch, a_dtype, b_dtype, a_t, b_t, block, num_warps):
    # fp8 inputs are exact in float64 and the products accumulate in f32:
    # the error is f32 rounding alone. sm_89 and later have fp8 mma.
    m, n, k = 201, 150, 224
    ta, tb = getattr(torch, a_dtype), getattr(torch, b_dtype)
    a = (torch.rand((k, m) if a_t else (m, k), device="cuda") * 8 - 4).to(ta)
    b = (torch.rand((n, k) if b_t else (k, n), device="cuda") * 8 - 4).to(tb)
    c, ptx = _matmul(torch, a, b, block, num_warps, a_t, b_t)
    A, B = (a.t() if a_t else a).double(), (b.t() if b_t else b).double()
    torch.testing.assert_close(c.double(), A @ B, rtol=1e-5, atol=1e-3)
    kinds = {"float8_e4m3fn": "e4m3", "float8_e5m2": "e5m2"}
    assert "mma.sync.aligned.m16n8k32.row.col.f32.%s.%s.f32" % (kinds[a_dtype], kinds[b_dtype]) in ptx


@pytest.mark.parametrize("a_dtype,b_dtype,inst", [
    ("float8_e4m3fn", "float8_e4m3fn", "m64n{n}k32.f32.e4m3.e4m3"), ("float8_e5m2", "float8_e4m3fn", "m64n{n}k32.f32.e5m2.e4m3"),
    ("float32", "float32", "m64n{n}k8.f32.tf32.tf32"), ("int8", "int8", "m64n{n}k32.satfinite.s32.s8.s8")])
@pytest.mark.parametrize("block,num_warps", [((128, 128, 128), 4), ((128, 64, 64), 8), ((64, 256, 32), 4)])
def test_wgmma_k_major_inputs(torch, a_dtype, b_dtype, inst, block, num_warps):
    # wgmma reads tf32, fp8 and 8-bit integer operands only k-major: A as
    # (m, k), B given as the transpose of an (n, k) tensor. Ragged m, n and k.
    m, n, k = 333, 300, 1000
    ta, tb = getattr(torch, a_dtype), getattr(torch, b_dtype)
    if a_dtype == "int8":
        a = torch.randint(-128, 128, (m, k), device="cuda", dtype=ta)
        b = torch.randint(-128, 128, (n, k), device="cuda", dtype=tb)
    else:
        a = (torch.rand((m, k), device="cuda") * 8 - 4).to(ta)
        b = (torch.rand((n, k), device="cuda") * 8 - 4).to(tb)
    if a_dtype == "float32":  # the same bytes of k per stage
        block = block[:2] + (block[2] // 4,)
    c, ptx = _matmul(torch, a, b, block, num_warps, b_t=True)
    if a_dtype == "int8":
        assert torch.equal(c.cpu(), (a.cpu().long() @ b.cpu().long().t()).int())
    else:
        # fp8 products are exact; wgmma's fp8 sums and its tf32 inputs (f32
        # truncated to 10 mantissa bits) lose more than f32 rounding alone.
        A, B = a.double(), b.double().t()
        err = ((c.double() - A @ B).abs() / (A.abs() @ B.abs())).max().item()
        assert err < 2e-3, err
    if ".target sm_90a" in ptx:
        want = "wgmma.mma_async.sync.aligned." + inst.format(n=block[1])
        assert want in ptx and "mma.sync" not in ptx and "ldmatrix" not in ptx, [l for l in ptx.splitlines() if "mma" in l][:2]


@pytest.mark.parametrize("a_t,b_t", [(False, False), (True, False), (True, True)])
@pytest.mark.parametrize("block,num_warps", [((128, 128, 32), 4), ((128, 256, 32), 8), ((256, 128, 32), 8),
                                             ((64, 128, 16), 4), ((128, 64, 32), 8)])
def test_wgmma_tf32_m_n_major_inputs(torch, a_t, b_t, block, num_warps):
    # tf32 with A contiguous along m (a_t) or B along n (not b_t): wgmma
    # reads 32-bit operands from shared memory only k-major, so A comes from
    # registers, B as the register A of C^T = B^T A^T when A is k-major, and
    # with both m/n-major B's stage is copied k-major through registers.
    # Ragged.
    m, n, k = 333, 300, 1000
    a = torch.randn((k, m) if a_t else (m, k), device="cuda")
    b = torch.randn((n, k) if b_t else (k, n), device="cuda")
    c, ptx = _matmul(torch, a, b, block, num_warps, a_t=a_t, b_t=b_t)
    A, B = (a.t() if a_t else a).double(), (b.t() if b_t else b).double()
    err = ((c.double() - A @ B).abs() / (A.abs() @ B.abs())).max().item()
    assert err < 2e-3, err
    # Swapped where B's columns split over the warps in 16s; else B copied.
    swapped = not a_t and not b_t and block[1] % (16 * num_warps) == 0
    rows, cols = (block[1], block[0]) if swapped else block[:2]  # the instruction's m x n
    if _wgmma_expected(ptx, (rows, cols), num_warps):
        want = "wgmma.mma_async.sync.aligned.m64n%dk8.f32.tf32.tf32" % cols
        insts = [l for l in ptx.splitlines() if "wgmma.mma_async" in l]
        registers = swapped or a_t
        assert insts and all(want in l and ("}, {%r" in l) == registers for l in insts), insts[:1]
        assert "mma.sync" not in ptx
        assert "fence.proxy.async.shared::cta" in ptx
    else:
        assert "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32" in ptx


@pytest.mark.parametrize("dtype,block", [("bfloat16", (128, 256, 64)), ("float32", (256, 128, 32))])
def test_four_stages_without_room_for_a_spare_keep_wgmma_in_flight(torch, dtype, block):
    # 4 x 48 KiB of stages leave no room for a fifth (spare) entry: one of
    # the four is the spare, copies run two iterations ahead, and each
    # iteration leaves its wgmma group in flight. Ragged.
    m, n, k = 333, 300, 1000
    t = getattr(torch, dtype)
    a, b = torch.randn(m, k, device="cuda", dtype=t), torch.randn(k, n, device="cuda", dtype=t)
    c, ptx = _matmul(torch, a, b, block, 8, num_stages=4)
    A, B = a.double(), b.double()
    err = ((c.double() - A @ B).abs() / (A.abs() @ B.abs())).max().item()
    assert err < 2e-3, err
    if ".target sm_90a" in ptx:
        assert "wgmma.wait_group.sync.aligned 1;" in ptx and "cp.async.wait_group 1;" in ptx


@pytest.mark.parametrize("dtype,block,num_warps", [("bfloat16", (128, 256, 64), 8), ("float16", (256, 128, 64), 8),
                                                   ("bfloat16", (128, 128, 64), 4), ("float32", (256, 128, 32), 8)])
def test_pipelined_dot_loop_that_runs_no_iteration(torch, dtype, block, num_warps):
    # K = 0: the loop runs no iteration and C is the initial accumulator. On
    # sm_90a the pipelined loop sits in `if 0 < K` with a drain on each path
    # (pipeline-loops' drainOnExit); this runs the path that skips the loop.
    t = getattr(torch, dtype)
    m, n = 300, 260
    a, b = torch.randn(m, 0, device="cuda", dtype=t), torch.randn(0, n, device="cuda", dtype=t)
    c, ptx = _matmul(torch, a, b, block, num_warps)
    assert (c == 0).all().item()
    if ".target sm_90a" in ptx:
        assert "wgmma.mma_async" in ptx and ptx.count("wgmma.wait_group.sync.aligned 0;") == 2


@tessera.jit
def _transpose_kernel(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr):
    rows, cols = tl.arange(0, R), tl.arange(0, C)
    x = tl.load(x_ptr + rows[:, None] * C + cols[None, :])  # contiguous along columns
    tl.store(y_ptr + cols[None, :] * R + rows[:, None], x)    # contiguous along rows: a layout conversion


def test_conversion_larger_than_shared_memory_goes_in_pieces(torch):
    # 256 x 256 f32 is 256 KiB, more than an H100/H200 block's 227 KiB: the
    # conversion between the load's and the store's layouts runs in pieces
    # (it was a compile error). 32 warps keep it at 64 registers a thread.
    x = torch.randn(256, 256, device="cuda")
    y = torch.full((256, 256), float("nan"), device="cuda")
    _transpose_kernel[(1,)](x, y, R=256, C=256, num_warps=32)
    torch.cuda.synchronize()
    assert torch.equal(y, x.t())


@tessera.jit
def _mm_transposed_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                          A_T: tl.constexpr, DESC: tl.constexpr):
    # B is (n, k) and A, with A_T, (k, m): the dot takes their transposes
    # (`b.T`), through tensor descriptors when DESC, as Triton's tutorial 09
    # writes its TMA matmuls.
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    if DESC:
        b_desc = tl.make_tensor_descriptor(b_ptr, [N, K], [K, 1], [BN, BK])
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        if A_T:
            a = tl.load(a_ptr + kk[:, None] * M + rm[None, :], mask=(kk[:, None] < K) & (rm[None, :] < M), other=0).T
        else:
            a = tl.load(a_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0)
        if DESC:
            b = b_desc.load([pid_n * BN, k0])
        else:
            b = tl.load(b_ptr + rn[:, None] * K + kk[None, :], mask=(rn[:, None] < N) & (kk[None, :] < K), other=0)
        acc = tl.dot(a, b.T, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@pytest.mark.parametrize("dtype,inst", [("float16", "m64n{n}k16.f32.f16.f16"), ("bfloat16", "m64n{n}k16.f32.bf16.bf16"),
                                        ("float8_e4m3fn", "m64n{n}k32.f32.e4m3.e4m3")])
@pytest.mark.parametrize("a_t,desc", [(False, False), (False, True), (True, False)])
@pytest.mark.parametrize("block,num_warps", [((128, 256, 64), 8), ((128, 128, 64), 4), ((64, 64, 32), 4)])
def test_dot_of_transposed_loads_is_pipelined_onto_tensor_cores(torch, dtype, inst, a_t, desc, block, num_warps):
    # The stage holds the tile as loaded; the dot reads it through a
    # transposed view (local_trans): wgmma with B k-major (any type), A
    # m-major (16-bit only: fp8 with A transposed stays on mma.sync).
    m, n, k = 333, 300, 1000
    t = getattr(torch, dtype)
    a = (torch.rand((k, m) if a_t else (m, k), device="cuda") * 4 - 2).to(t)
    b = (torch.rand((n, k), device="cuda") * 4 - 2).to(t)
    c = torch.full((m, n), float("nan"), device="cuda")
    bm, bn, bk = block
    if dtype.startswith("float8"):
        bk *= 2
    args = (a, b, c, m, n, k)
    meta = dict(BM=bm, BN=bn, BK=bk, A_T=a_t, DESC=desc, num_warps=num_warps)
    _mm_transposed_kernel[(tessera.cdiv(m, bm), tessera.cdiv(n, bn))](*args, **meta)
    A = a.double().t() if a_t else a.double()
    B = b.double().t()
    err = ((c.double() - A @ B).abs() / (A.abs() @ B.abs())).max().item()
    assert err < 2e-3, err
    ptx = _mm_transposed_kernel.compile_only("nvptx", *args, **meta).assembly
    if ".target sm_90a" in ptx and not (a_t and dtype.startswith("float8")):
        want = "wgmma.mma_async.sync.aligned." + inst.format(n=bn)
        assert want in ptx and "mma.sync" not in ptx, [l for l in ptx.splitlines() if "mma" in l][:2]
    else:
        assert "mma.sync" in ptx or "wgmma" in ptx
