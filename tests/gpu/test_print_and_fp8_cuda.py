"""Triton's device_print lines and fp8e4b15 on the GPU (nvptx): the CPU
suite's kernels and references (tests/python/test_device_print_format.py,
test_fp8e4b15.py) on torch CUDA tensors; the lines come from the kernel's
printf, flushed at the synchronization."""

import collections
import os
import sys

import numpy as np
import pytest

import tessera.language as tl

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
import test_device_print_format as P  # noqa: E402  (the kernels and expected lines, shared with the CPU tests)
import test_fp8e4b15 as F  # noqa: E402


@pytest.mark.parametrize("kind", P.KINDS)
def test_device_print_lines(torch, capfd, kind):
    x = np.random.default_rng().integers(-1000, 1000, 128).astype(np.int32)
    capfd.readouterr()
    P._printing[(1,)](torch.from_numpy(x).cuda(), torch.tensor([42], dtype=torch.int32, device="cuda"),
                      N=x.size, KIND=kind)
    torch.cuda.synchronize()
    lines = collections.Counter(line for line in capfd.readouterr().out.splitlines() if line)
    assert lines == P._expected(kind, x)


def test_fp8e4b15_widens_narrows_and_takes_abs(torch):
    bits = np.arange(256, dtype=np.uint8)
    out = torch.full((256,), float("nan"), device="cuda")
    F._widen[(1,)](torch.from_numpy(bits).cuda(), out, N=256, TO=tl.float32, CUSTOM=False)
    np.testing.assert_array_equal(out.cpu().numpy(), F._widened(bits).astype(np.float32))
    rng = np.random.default_rng()
    x = np.concatenate([rng.standard_normal(1000) * 2, [np.nan, np.inf, -np.inf, 1.8125, 70000.0, 2.0 ** -18],
                        np.zeros(1042)]).astype(np.float32)
    narrowed = torch.zeros(x.size, dtype=torch.uint8, device="cuda")
    F._narrow[(1,)](torch.from_numpy(x).cuda(), narrowed, N=x.size, CUSTOM=True)
    np.testing.assert_array_equal(narrowed.cpu().numpy(), F._narrowed(x))
    absolute = torch.zeros(256, dtype=torch.uint8, device="cuda")
    F._abs[(1,)](torch.from_numpy(bits).cuda(), absolute, N=256)
    np.testing.assert_array_equal(absolute.cpu().numpy(), bits & 0x7F)


def test_fp8e4b15_dot_takes_f16_operands(torch):
    rng = np.random.default_rng()
    a, b = (rng.integers(0, 256, (16, 16), dtype=np.uint8) for _ in range(2))
    c = torch.full((16, 16), float("nan"), device="cuda")
    F._dot[(1,)](torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda(), c, N=16)
    want = F._widened(a).astype(np.float64) @ F._widened(b).astype(np.float64)
    np.testing.assert_allclose(c.cpu().numpy(), want, rtol=1e-3, atol=1e-3 * np.abs(want).max())
