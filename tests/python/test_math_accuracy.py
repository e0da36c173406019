"""exp and exp2 of fp32 are computed inline by the CPU target (a range
reduction and a polynomial): their error, in ulp of the float64 result
rounded to fp32, over every octave of the finite range, the edges where the
result overflows or becomes subnormal, and the special values."""
import numpy as np
import pytest

import tessera
import tessera.language as tl

MAX_ULP = 3  # IR.h promises "a few ulp"


@tessera.jit
def exp_kernel(x, y, n, BASE2: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m)
    tl.store(y + offs, tl.exp2(v) if BASE2 else tl.exp(v), mask=m)


def _ulp_error(got, want64):
    with np.errstate(over="ignore"):
        want = want64.astype(np.float32)
    finite = np.isfinite(want) & (want != 0)
    # ulp of the exact result, at least the smallest subnormal
    ulp = np.maximum(np.spacing(np.abs(want[finite])).astype(np.float64), np.float64(np.finfo(np.float32).smallest_subnormal))
    return np.abs(got[finite].astype(np.float64) - want64[finite]) / ulp


def _inputs(base2, rng):
    hi, lo = (128.0, -150.0) if base2 else (88.7, -103.9)
    dense = np.linspace(lo, hi, 2_000_001)
    rand = rng.uniform(lo, hi, 1_000_000)
    small = np.concatenate([rng.uniform(-1e-3, 1e-3, 100_000), np.geomspace(1e-30, 1, 10_000)])
    return np.concatenate([dense, rand, small, -small]).astype(np.float32)


@pytest.mark.parametrize("base2", [False, True], ids=["exp", "exp2"])
def test_fp32_exp_is_accurate_to_a_few_ulp(base2):
    x = _inputs(base2, np.random.default_rng(11))
    y = np.full_like(x, np.nan)
    exp_kernel[(tessera.cdiv(x.size, 1024),)](x, y, x.size, BASE2=base2, BLOCK=1024)
    want = np.exp2(x.astype(np.float64)) if base2 else np.exp(x.astype(np.float64))
    err = _ulp_error(y, want)
    assert err.max() <= MAX_ULP, f"{err.max():.2f} ulp"


@pytest.mark.parametrize("base2", [False, True], ids=["exp", "exp2"])
def test_fp32_exp_special_values(base2):
    big = 200.0
    x = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, big, -big, 1e30, -1e30, 3.4e38, -3.4e38,
                  88.72284, 88.72285, 128.0, 127.99999, -149.0, -150.0, -103.97, -104.0], np.float32)
    y = np.full_like(x, 7.0)
    exp_kernel[(1,)](x, y, x.size, BASE2=base2, BLOCK=32)
    with np.errstate(over="ignore"):
        want = (np.exp2(x.astype(np.float64)) if base2 else np.exp(x.astype(np.float64))).astype(np.float32)
    same = (y == want) | (np.isnan(y) & np.isnan(want))
    # Results within a few ulp of the limits are checked above; here only the
    # classes must match (inf, 0, NaN) or the values agree to a few ulp.
    with np.errstate(invalid="ignore"):
        err = np.abs(y.astype(np.float64) - want)
    close = np.isfinite(want) & np.isfinite(y) & (err <= MAX_ULP * np.spacing(np.abs(want)).astype(np.float64) + 1e-45 * MAX_ULP)
    assert (same | close).all(), list(zip(x[~(same | close)], y[~(same | close)], want[~(same | close)]))
