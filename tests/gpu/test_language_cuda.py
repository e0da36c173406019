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
