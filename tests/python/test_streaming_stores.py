"""Large 1-D stores stream whole cache lines past the caches on the CPU target,
also when the output does not start on a line: each line is then rebuilt from
two chunks, and the partial lines at either end store lane by lane. Outputs
here start at every element offset within a line, next to guard zones that
must stay untouched, for every element size."""
import numpy as np
import pytest

import tessera
import tessera.language as tl

ml_dtypes = pytest.importorskip("ml_dtypes")


@tessera.jit
def affine(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y + offs, tl.load(x + offs, mask=m) * 3 + 1, mask=m)


@tessera.jit
def affine_unmasked(x, y, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + offs, tl.load(x + offs) * 3 + 1)


@tessera.jit
def affine_in_place(x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(x + offs, tl.load(x + offs, mask=m) * 3 + 1, mask=m)


DTYPES = [np.float32, np.int32, np.float64, np.int64, np.float16, ml_dtypes.bfloat16, np.uint8]


def _aligned(n, dtype, offset, fill):
    """A view of n elements that starts `offset` elements after a 64-byte
    boundary, with 128 bytes of `fill` (and then some) on either side."""
    itemsize = np.dtype(dtype).itemsize
    lead = 128 // itemsize + offset
    total = lead + n + 128 // itemsize
    raw = np.empty(total * itemsize + 64, np.uint8)
    start = (-raw.ctypes.data) % 64
    whole = raw[start:start + total * itemsize].view(dtype)
    whole[...] = fill
    return whole, whole[lead:lead + n], lead


def _inputs(n, dtype, rng):
    if np.dtype(dtype).kind in "iu":
        return rng.integers(0, 40, n).astype(dtype)
    return rng.standard_normal(n).astype(dtype)


def _poison(dtype):
    return np.array(123 if np.dtype(dtype).kind in "iu" else np.nan, dtype=dtype)


def _check(whole, lead, n, want, poison):
    got = whole[lead:lead + n]
    if np.dtype(whole.dtype).kind in "iu":
        np.testing.assert_array_equal(got, want)
    else:
        tol = 1e-2 if whole.dtype.itemsize == 2 else 1e-6  # x * 3 + 1 may round once (fma) or twice
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol, atol=tol)
    outside = np.concatenate([whole[:lead], whole[lead + n:]])
    if np.dtype(whole.dtype).kind in "iu":
        assert (outside == poison).all(), "a store wrote outside the output"
    else:
        assert np.isnan(outside.astype(np.float32)).all(), "a store wrote outside the output"


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("offset", [0, 1, 3, 4, 7])
@pytest.mark.parametrize("n,block", [(4096, 1024), (3000, 1024), (64, 64), (1000, 256)])
def test_store_at_any_offset_within_a_line(dtype, offset, n, block):
    rng = np.random.default_rng(offset * 7919 + n)
    x = _inputs(n, dtype, rng)
    whole, y, lead = _aligned(n, dtype, offset, _poison(dtype))
    affine[(tessera.cdiv(n, block),)](x, y, n, BLOCK=block)
    want = (x.astype(np.float64) * 3 + 1).astype(dtype)
    _check(whole, lead, n, want, _poison(dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.int64, ml_dtypes.bfloat16], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("offset", [0, 2, 5])
def test_unmasked_store_at_any_offset(dtype, offset):
    n, block = 8192, 2048
    x = _inputs(n, dtype, np.random.default_rng(offset))
    whole, y, lead = _aligned(n, dtype, offset, _poison(dtype))
    affine_unmasked[(n // block,)](x, y, BLOCK=block)
    _check(whole, lead, n, (x.astype(np.float64) * 3 + 1).astype(dtype), _poison(dtype))


@pytest.mark.parametrize("offset", [0, 1, 6])
def test_in_place_store_at_any_offset(offset):
    n = 5000
    whole, x, lead = _aligned(n, np.float32, offset, np.nan)
    x[...] = np.random.default_rng(offset).standard_normal(n).astype(np.float32)
    want = x.astype(np.float64) * 3 + 1
    affine_in_place[(tessera.cdiv(n, 1024),)](x, n, BLOCK=1024)
    _check(whole, lead, n, want.astype(np.float32), np.nan)


def test_many_programs_share_boundary_lines():
    # Programs of 64 elements starting 4 elements into a line: each program's
    # first and last lines are shared with its neighbours, which other threads write.
    n, block = 64 * 4000, 64
    x = _inputs(n, np.float32, np.random.default_rng(1))
    for _ in range(3):
        whole, y, lead = _aligned(n, np.float32, 4, np.nan)
        affine[(tessera.cdiv(n, block),)](x, y, n, BLOCK=block)
        _check(whole, lead, n, (x.astype(np.float64) * 3 + 1).astype(np.float32), np.nan)
