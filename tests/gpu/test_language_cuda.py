"""Triton-language features (the Triton-language issue) run on the GPU on
torch CUDA tensors, against torch in higher precision: the CPU suite
(tests/python/test_triton_semantics.py) checks them on the host."""

import sys
import os

import numpy as np
import pytest

import tessera
import tessera.language as tl

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
import test_triton_semantics as S  # noqa: E402  (the kernels, shared with the CPU tests)


@pytest.mark.parametrize("precision, worst", [("bf16x3", 1e-4), ("bf16x6", 1e-6)])
def test_dot_bf16_splits(torch, precision, worst):
    a, b = torch.randn(2, 32, 32, device="cuda")
    out = torch.full((32, 32), float("nan"), device="cuda")
    S._dot_precision[(1,)](a, b, out, PRECISION=precision)
    exact = a.double() @ b.double()
    assert ((out.double() - exact).abs().max() / exact.abs().max()).item() < worst


def test_dot_scaled_e2m1_times_e4m3(torch):
    M, N, K = 32, 16, 64
    a = torch.randint(0, 256, (M, K // 2), dtype=torch.uint8, device="cuda")
    a_scale = torch.randint(120, 135, (M, K // 32), dtype=torch.uint8, device="cuda")
    b = torch.randint(0, 256, (K, N), dtype=torch.uint8, device="cuda")
    b[(b & 0x7F) == 0x7F] = 0x3C
    out = torch.full((M, N), float("nan"), device="cuda")
    S._dot_scaled[(1,)](a, a_scale, b, out, M=M, N=N, K=K)
    an, sn, bn = a.cpu().numpy(), a_scale.cpu().numpy(), b.cpu().numpy()
    a_values = np.stack([S._e2m1(an & 0xF), S._e2m1(an >> 4)], axis=-1).reshape(M, K)
    a_values *= np.repeat(2.0 ** (sn.astype(np.float64) - 127), 32, axis=1)
    expected = a_values @ S._e4m3(bn)
    np.testing.assert_allclose(out.cpu().numpy(), expected, rtol=1e-5, atol=1e-5 * np.abs(expected).max())


@pytest.mark.parametrize("reverse", [False, True])
def test_order_dependent_scans(torch, reverse):
    n = 64
    x, y = torch.randn(2, n, device="cuda")
    first, rec = torch.full((2, n), float("nan"), device="cuda")
    arg = torch.full((n,), -7, dtype=torch.int64, device="cuda")
    S._scans[(1,)](x, y, first, rec, arg, N=n, REVERSE=reverse)
    xs, ys = (x.flip(0), y.flip(0)) if reverse else (x, y)
    expected_first = torch.full((n,), xs[0].item(), device="cuda")
    acc, expected_rec = 0.0, []
    for i in range(n):
        acc = xs[i].item() * acc + ys[i].item()
        expected_rec.append(acc)
    expected_rec = torch.tensor(expected_rec, device="cuda")
    if reverse:
        expected_rec = expected_rec.flip(0)
    torch.testing.assert_close(first, expected_first)
    torch.testing.assert_close(rec, expected_rec, rtol=1e-4, atol=1e-5)


def test_map_elementwise(torch):
    n = 64
    x = torch.randint(-50, 200, (n,), dtype=torch.int32, device="cuda")
    x[:3] = torch.tensor([5, 4, 101], dtype=torch.int32)
    s, y, p = torch.full((3, n), -7, dtype=torch.int32, device="cuda")
    S._map_kernel[(1,)](x, s, y, p, N=n)
    xn = x.cpu().numpy()
    np.testing.assert_array_equal(s.cpu().numpy(), np.where(xn < 5, -1, np.where(xn > 100, 1, 0)))
    np.testing.assert_array_equal(y.cpu().numpy(), np.where(xn < 5, 5, np.where(xn == 5, 10, np.where(xn > 100, 100, xn))))
    groups = xn.reshape(-1, 4)
    np.testing.assert_array_equal(p.cpu().numpy().reshape(-1, 4), groups + groups[:, ::-1])


def test_host_tensor_descriptors(torch):
    from tessera.tools.tensor_descriptor import TensorDescriptor
    x = torch.randn(40, 70, device="cuda")
    z = torch.full_like(x, float("nan"))
    S._through_descriptors[(3, 3)](TensorDescriptor.from_tensor(x, [16, 32]), TensorDescriptor.from_tensor(z, [16, 32]),
                                   BM=16, BN=32)
    torch.testing.assert_close(z, 2 * x + 1, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("rank", [3, 4])
def test_dot_over_batches(torch, rank):
    shape = (2,) * (rank - 2) + (16, 16)
    x, y = torch.randn((2,) + shape, device="cuda")
    z = torch.full(shape, float("nan"), device="cuda")
    S._dot_batches[(1,)](x, y, z, RANK=rank)
    torch.testing.assert_close(z.double(), torch.matmul(x.double(), y.double().transpose(-1, -2)) + 1.0,
                               rtol=1e-5, atol=1e-5)


def test_asserts_in_combines(torch):
    x = torch.zeros(512, dtype=torch.int32, device="cuda")
    x[:300] = 32
    z = torch.zeros(1, dtype=torch.int32, device="cuda")
    S._sanitized_sums[(1,)](z, x, BLOCK=512)        # a failing device assert would end the CUDA context
    assert z.item() == 9600 and x[-1].item() == 9600


@pytest.mark.parametrize("k", [1, 4, 16])
def test_topk(torch, k):
    x = torch.randn(4, 16, device="cuda")
    y, z = torch.full((2, 4, k), float("nan"), device="cuda")
    S._top[(1,)](x, y, z, K=k)
    torch.testing.assert_close(y, torch.topk(x, k, dim=1).values, rtol=0, atol=0)
    torch.testing.assert_close(z, torch.topk(x, k, dim=1, largest=False).values, rtol=0, atol=0)


def _asm_kernels():
    import test_inline_asm as A  # noqa: E402  (the kernels, shared with the compile tests)
    return A


def test_inline_asm_on_the_gpu(torch):
    A = _asm_kernels()
    rs = np.random.RandomState(17)
    x = rs.randint(0, 2**32, 128, dtype=np.uint64).astype(np.uint32)
    y = rs.randint(0, 2**32, 128, dtype=np.uint64).astype(np.uint32)
    z = torch.full((128,), -1, dtype=torch.int32, device="cuda")
    A.funnel_shift[(1,)](torch.from_numpy(x.view(np.int32)).cuda(), torch.from_numpy(y.view(np.int32)).cuda(), z, 17,
                         BLOCK=128)
    np.testing.assert_array_equal(z.cpu().numpy().view(np.uint32), (y << 17) | (x >> (32 - 17)))
    b = torch.randint(0, 256, (512,), dtype=torch.uint8, device="cuda")
    out = torch.full((512,), 0xAA, dtype=torch.uint8, device="cuda")
    A.packed_shift[(1,)](b, out, BLOCK=512)
    np.testing.assert_array_equal(out.cpu().numpy(), (b.cpu().numpy() & 0x1F) << 3)
    out.fill_(0xAA)
    A.through_pointers[(1,)](b, out, BLOCK=512)
    np.testing.assert_array_equal(out.cpu().numpy(), (b.cpu().numpy() << 3).astype(np.uint8))
    p, q = (torch.randint(-2**31, 2**31 - 1, (128,), dtype=torch.int32, device="cuda") for _ in range(2))
    c, d = (torch.full((128,), 7, dtype=torch.int32, device="cuda") for _ in range(2))
    A.two_outputs[(1,)](p, q, c, d, BLOCK=128)
    pn, qn = p.cpu().numpy().view(np.uint32), q.cpu().numpy().view(np.uint32)
    np.testing.assert_array_equal(c.cpu().numpy().view(np.uint32), pn - qn)
    np.testing.assert_array_equal(d.cpu().numpy().view(np.uint32), qn - pn)
    f = torch.randn(512, device="cuda") * 200
    ci = torch.full((512,), -1, dtype=torch.int32, device="cuda")
    df = torch.full((512,), float("nan"), device="cuda")
    A.packed_two_outputs[(1,)](b, f, ci, df, BLOCK=512)
    np.testing.assert_array_equal(ci.cpu().numpy(), b.cpu().numpy().astype(np.int32))
    np.testing.assert_array_equal(df.cpu().numpy(), np.maximum(b.cpu().numpy().astype(np.float32), f.cpu().numpy()))


def test_extra_cuda_on_the_gpu(torch):
    from test_extra_cuda import _facts, _timed  # noqa: E402
    out = torch.zeros(3, dtype=torch.int64, device="cuda")
    _timed[(1,)](out, clock=tl.extra.cuda.globaltimer)
    start, end, _ = out.tolist()
    assert 0 < start < end
    o = torch.zeros(512, dtype=torch.int32, device="cuda")
    ids = torch.full((132,), -1, dtype=torch.int32, device="cuda")
    _facts[(132,)](o, ids, num_warps=8)
    assert o[:256].eq(8).all() and o[256:].eq(0).all()
    assert ids.ge(0).all() and ids.unique().numel() > 1


def test_libdevice_rounding_modes_on_the_gpu(torch):
    """Directed rounding bit for bit on the GPU (the CPU suite's references)."""
    import test_libdevice_exact as E  # noqa: E402
    rng = np.random.default_rng(9)
    for dtype in ("float32", "float64"):
        for op, arity in (("add", 2), ("mul", 2), ("div", 2), ("fma", 3), ("sqrt", 1)):
            args = E._operands(dtype, arity, rng, n=256)
            if op == "sqrt":
                args = [np.abs(args[0])]
            for mode in E.MODES:
                name = op + "_" + mode
                dev = [torch.from_numpy(a).cuda() for a in args + [args[0]] * (4 - len(args))]
                out = torch.empty(args[0].size, dtype=getattr(torch, dtype), device="cuda")
                E._kernel(name)[(tessera.cdiv(args[0].size, 256),)](*dev, out, args[0].size, ARITY=arity, BLOCK=256)
                want = np.array([E._arith_reference(op, dtype, mode, row) for row in zip(*args)], dtype)
                E._check(name, args, out.cpu().numpy(), want, dtype)


def test_item_of_a_loaded_tile(torch):
    x = torch.tensor([21], dtype=torch.int32, device="cuda")
    y = torch.zeros(1, dtype=torch.int32, device="cuda")
    S._item_of_a_load[(1,)](x, y)
    assert y.item() == 42


def test_scalars_out_of_tiles(torch):
    x = torch.tensor([3.5, -7.25], device="cuda")
    z1, z2 = torch.zeros(1, device="cuda"), torch.zeros(1, device="cuda")
    S._split_to_scalars[(1,)](x, z1, z2)
    assert z1.item() == 3.5 and z2.item() == -7.25
    for y in (41, 43):
        for explicit in (False, True):
            v = torch.full((1,), y, dtype=torch.int32, device="cuda")
            S._unsplat_condition[(1,)](v, explicit)
            assert v.item() == min(y, 42)


@tessera.jit
def _serialized_add(data, Lock, SEM: tl.constexpr):
    ptrs = data + tl.arange(0, 128)
    while tl.atomic_cas(Lock, 0, 1, SEM) == 1:
        pass
    tl.store(ptrs, tl.load(ptrs) + 1.0)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


@pytest.mark.parametrize("sem", ["acquire", "acq_rel"])
def test_a_spin_lock_serializes_programs(torch, sem):
    # The lock's acquire and release order the critical section's accesses
    # (LLVM 19's NVPTX atomics carried no ordering: programs read stale data).
    lock = torch.zeros(1, dtype=torch.int32, device="cuda")
    data = torch.zeros(128, device="cuda")
    _serialized_add[(2000,)](data, lock, SEM=sem)
    assert data.eq(2000).all(), data[:4]


@tessera.jit
def _float_extrema(Z, X, MAX: tl.constexpr, SEM: tl.constexpr):
    r = tl.arange(0, 64)
    x = tl.load(X + tl.program_id(0) * 64 + r)
    if MAX:
        tl.atomic_max(Z + r, x, sem=SEM)
    else:
        tl.atomic_min(Z + r, x, sem=SEM)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("is_max", [True, False])
def test_float_atomic_max_min_over_signs(torch, dtype, is_max):
    # Integer atomics on the bits (signed for the non-negative, unsigned
    # reversed for the negative): every mix of signs and zeros.
    t = getattr(torch, dtype)
    x = torch.randn(32, 64, dtype=t, device="cuda") * 100
    x[:, :8] = -x[:, :8].abs()
    x[:, 8:16] = x[:, 8:16].abs()
    x[3, 16:24], x[5, 24:32] = -0.0, 0.0
    z = torch.full((64,), float("-inf") if is_max else float("inf"), dtype=t, device="cuda")
    z[40:48] = -5.0 if is_max else 5.0  # a finite start of the other sign
    expected = torch.maximum(x.amax(0), z) if is_max else torch.minimum(x.amin(0), z)
    _float_extrema[(32,)](z, x, MAX=is_max, SEM="acq_rel")
    assert torch.equal(z, expected), (z, expected)


@tessera.jit
def _spin(x_ptr, n_iter):
    acc = tl.load(x_ptr)
    for _ in range(n_iter):
        acc = acc * 0.999 + 1.0
    tl.store(x_ptr, acc)


def test_do_bench_times_the_kernel_on_the_device_not_its_launch(torch):
    # A launch returns in microseconds; the kernel runs for about a
    # millisecond: do_bench must report the latter (the autotuner ranks
    # configurations by it), as CUDA events around the call measure it.
    x = torch.ones(1, device="cuda")
    _spin[(1,)](x, 200_000)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    start.record()
    _spin[(1,)](x, 200_000)
    end.record()
    torch.cuda.synchronize()
    kernel_ms = start.elapsed_time(end)
    assert kernel_ms > 0.2
    measured = tessera.testing.do_bench(lambda: _spin[(1,)](x, 200_000), warmup=5, rep=20, return_mode="median")
    assert 0.7 * kernel_ms < measured < 1.5 * kernel_ms + 0.05, (measured, kernel_ms)
