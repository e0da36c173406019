"""Casts to bfloat16 round to nearest even, subnormals included: on the
CPU, x86's VCVTNEPS2BF16 (AVX512-BF16), which LLVM picks for the cast where
the host has it, reads subnormal inputs as zero; Tessera rounds on the bits
(Triton's test_typeconvert_downcast[float32-bfloat16-rtne] found it).
Bit-exact against ml_dtypes on random bit patterns of every class."""
import numpy as np
import pytest

import tessera
import tessera.language as tl

ml_dtypes = pytest.importorskip("ml_dtypes")


@tessera.jit
def _to_bf16(x_ptr, out_ptr, N: tl.constexpr, NARROWER: tl.constexpr):
    i = tl.arange(0, N)
    if NARROWER:  # fp_downcast_rounding applies to narrower types only
        tl.store(out_ptr + i, tl.load(x_ptr + i).to(tl.bfloat16, fp_downcast_rounding="rtne"))
    else:
        tl.store(out_ptr + i, tl.load(x_ptr + i).to(tl.bfloat16))


def _patterns(rng, src, n=4096):
    bits = {np.float32: np.uint32, np.float64: np.uint64, np.float16: np.uint16}[src]
    x = rng.integers(0, np.iinfo(bits).max, n, dtype=bits, endpoint=True).view(src).copy()
    tiny = np.finfo(np.float32).tiny
    x[: n // 2] = (rng.standard_normal(n // 2) * tiny * rng.uniform(0, 1.5, n // 2)).astype(src)  # fp32 subnormals
    x[:6] = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, np.finfo(np.float32).max]).astype(src)
    return x


@pytest.mark.parametrize("src", [np.float32, np.float64, np.float16], ids=lambda t: t.__name__)
def test_rounds_subnormals_to_nearest_even(src):
    x = _patterns(np.random.default_rng(), src)
    out = np.zeros(len(x), ml_dtypes.bfloat16)
    _to_bf16[(1,)](x, out, N=len(x), NARROWER=src is not np.float16)
    want = x.astype(np.float64).astype(ml_dtypes.bfloat16) if src is not np.float64 else x.astype(ml_dtypes.bfloat16)
    nan = np.isnan(want.astype(np.float32))
    assert np.isnan(out[nan].astype(np.float32)).all()
    np.testing.assert_array_equal(out[~nan].view(np.uint16), want[~nan].view(np.uint16))
    if src is np.float32:
        assert (out.view(np.uint16)[6: len(x) // 2] & 0x7F80 == 0).any()  # subnormal results were made
