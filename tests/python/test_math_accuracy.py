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


# exp(x - max(x)) skips the clamp from above (its argument is <= 0 or NaN);
# look-alikes whose argument can be positive must keep it: exp of +inf and of
# huge positive values is inf, not NaN.
@tessera.jit
def exp_minus_max_rows(x, y, N: tl.constexpr):
    rows = tl.arange(0, 4)
    cols = tl.arange(0, N)
    v = tl.load(x + rows[:, None] * N + cols[None, :])
    m = tl.max(v, axis=1)
    tl.store(y + rows[:, None] * N + cols[None, :], tl.exp(v - m[:, None]))


@tessera.jit
def exp_minus_other_max(x, z, y, N: tl.constexpr):
    cols = tl.arange(0, N)
    v = tl.load(x + cols)
    w = tl.load(z + cols)
    tl.store(y + cols, tl.exp(v - tl.max(w, axis=0)))


@tessera.jit
def exp_minus_transposed_max(x, y, N: tl.constexpr):
    rows = tl.arange(0, N)
    cols = tl.arange(0, N)
    v = tl.load(x + rows[:, None] * N + cols[None, :])
    m = tl.max(v, axis=1)
    tl.store(y + rows[:, None] * N + cols[None, :], tl.exp(v - m[None, :]))  # max of row j, not of row i


def test_exp_of_x_minus_its_max():
    N = 64
    x = np.random.default_rng(5).standard_normal((4, N)).astype(np.float32)
    x[1, 3] = np.nan
    x[2, :] = -np.inf
    x[3, 7] = np.inf
    y = np.full_like(x, 7.0)
    exp_minus_max_rows[(1,)](x, y, N=N)
    with np.errstate(invalid="ignore"):
        want = np.exp(x.astype(np.float64) - np.nanmax(x.astype(np.float64), axis=1, keepdims=True))
    np.testing.assert_allclose(y, want.astype(np.float32), rtol=4e-7, atol=0)
    assert np.isnan(y[1, 3]) and np.isnan(y[2]).all() and np.isnan(y[3, 7])


def test_exp_look_alikes_keep_the_upper_clamp():
    N = 16
    # Unclamped, the range reduction of these loses the result's sign or class.
    big = [1e10, 3e38, 1e20, np.inf, 1e30, 300.0, 89.0]
    v = np.array(big + [50.0, -3.0] + [0.0] * 7, np.float32)
    w = np.full(N, -1.0, np.float32)
    y = np.zeros(N, np.float32)
    exp_minus_other_max[(1,)](v, w, y, N=N)
    with np.errstate(over="ignore"):
        want = np.exp(v.astype(np.float64) + 1.0).astype(np.float32)
    np.testing.assert_array_equal(y[:len(big)], np.full(len(big), np.inf, np.float32))
    np.testing.assert_allclose(y[len(big):], want[len(big):], rtol=4e-7)
    x = np.full((N, N), -5e9, np.float32)
    x[0, :] = 5e9  # row 0's max is 5e9, every other row's -5e9
    y2 = np.zeros((N, N), np.float32)
    exp_minus_transposed_max[(1,)](x, y2, N=N)
    # element (i, j) gets exp(x[i, j] - max of row j): row 0 minus -5e9 overflows to +inf
    assert (y2[0, 1:] == np.inf).all()
