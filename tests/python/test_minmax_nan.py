"""tl.max and tl.min of floats return the non-NaN operand (IR.h): a row's
NaNs are ignored, and only a row of NaNs reduces to NaN. The CPU target
reduces long rows with compare-selects on NaN-free partials and falls back to
the exact combine when the result is the identity (inf), so rows of -inf/+inf,
NaNs at every position and all-NaN rows are checked for every float type."""
import numpy as np
import pytest

import tessera
import tessera.language as tl

ml_dtypes = pytest.importorskip("ml_dtypes")


@tessera.jit
def row_max_min(x, mx, mn, stride, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + row * stride + cols, mask=cols < n, other=float("nan"))
    tl.store(mx + row, tl.max(v, axis=0))
    tl.store(mn + row, tl.min(v, axis=0))


@tessera.jit
def row_max_2d(x, out, n, BLOCK: tl.constexpr):
    rows = tl.arange(0, 4)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + rows[:, None] * n + cols[None, :], mask=cols[None, :] < n, other=-float("inf"))
    tl.store(out + rows, tl.max(v, axis=1))


def _rows(n, dtype, rng):
    nan, inf = np.nan, np.inf
    base = rng.standard_normal((10, n))
    base[1, ::7] = nan                                   # scattered NaNs
    base[2, :] = nan                                     # all NaN
    base[3, :] = -inf                                    # all -inf
    base[4, :] = inf                                     # all +inf
    base[5, :] = nan
    base[5, n // 2] = -inf                               # NaNs and one -inf
    base[6, :] = nan
    base[6, -1] = 3.0                                    # one number at the end
    base[7, :16] = nan                                   # NaNs where the partials start
    base[8, 0] = inf
    base[8, 1] = -inf
    base[9, :] = -inf
    base[9, 5] = nan                                     # -inf with a NaN
    return base.astype(dtype)


@pytest.mark.filterwarnings("ignore:All-NaN slice")
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, ml_dtypes.bfloat16], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("n,block", [(1024, 1024), (1000, 1024), (64, 64), (37, 64)])
def test_max_and_min_ignore_nan(dtype, n, block):
    x = _rows(n, dtype, np.random.default_rng(n))
    mx = np.full(10, 7, dtype=dtype)
    mn = np.full(10, 7, dtype=dtype)
    row_max_min[(10,)](x, mx, mn, n, n, BLOCK=block)
    np.testing.assert_array_equal(mx.astype(np.float64), np.nanmax(x.astype(np.float64), axis=1))
    np.testing.assert_array_equal(mn.astype(np.float64), np.nanmin(x.astype(np.float64), axis=1))


@pytest.mark.filterwarnings("ignore:All-NaN slice")
def test_max_over_rows_of_a_2d_tile():
    n = 512
    x = _rows(n, np.float32, np.random.default_rng(3))[[1, 2, 5, 8]]
    out = np.zeros(4, np.float32)
    row_max_2d[(1,)](x, out, n, BLOCK=n)
    np.testing.assert_array_equal(out, np.nanmax(x, axis=1))
