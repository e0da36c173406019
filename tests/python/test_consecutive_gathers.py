"""Gathers and scatters whose pointers turn out consecutive at run time use
one vector access on the CPU target (checked per chunk, lanes whose mask is
off not compared); the rest stay gathers. Both paths, with masks whose off
lanes hold wild indices, must give what numpy gives."""
import numpy as np
import pytest

import tessera
import tessera.language as tl


@tessera.jit
def wrapped_columns(x, y, n, BLOCK: tl.constexpr):
    # Triton's matmul columns: (pid * B + arange(B)) % n, which no analysis
    # proves consecutive (pid * B may exceed n), but mostly are.
    cols = (tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)) % n
    tl.store(y + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK), tl.load(x + cols) * 2)


@tessera.jit
def gather(x, idx, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    i = tl.load(idx + offs, mask=m, other=0)
    tl.store(y + offs, tl.load(x + i, mask=m, other=-1.0), mask=m)


@tessera.jit
def scatter(x, idx, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    i = tl.load(idx + offs, mask=m, other=0)
    tl.store(y + i, tl.load(x + offs, mask=m), mask=m)


@pytest.mark.parametrize("n", [1024, 1000, 48, 17])
def test_wrapped_columns(n):
    block = 64
    programs = 3 * tessera.cdiv(n, block)
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    y = np.full(programs * block, np.nan, np.float32)
    wrapped_columns[(programs,)](x, y, n, BLOCK=block)
    np.testing.assert_array_equal(y, x[np.arange(programs * block) % n] * 2)


def _indices(kind, n, rng):
    if kind == "identity":
        return np.arange(n, dtype=np.int32)
    if kind == "runs":  # consecutive runs of 16 in shuffled order
        runs = rng.permutation(n // 16)
        base = np.concatenate([np.arange(r * 16, r * 16 + 16) for r in runs]).astype(np.int32)
        return np.concatenate([base, np.arange(len(base), n, dtype=np.int32)])
    if kind == "reversed":
        return np.arange(n - 1, -1, -1, dtype=np.int32)
    return rng.permutation(n).astype(np.int32)


@pytest.mark.parametrize("kind", ["identity", "runs", "reversed", "random"])
@pytest.mark.parametrize("n", [4096, 1000])
def test_gather_and_scatter(kind, n):
    rng = np.random.default_rng(len(kind) * n)
    x = rng.standard_normal(n).astype(np.float32)
    idx = _indices(kind, n, rng)
    # Beyond n (masked off) the index array holds wild values that must not be used.
    padded = np.concatenate([idx, np.full(256, -(1 << 30), np.int32)])
    y = np.full(n, np.nan, np.float32)
    gather[(tessera.cdiv(n, 256),)](x, padded, y, n, BLOCK=256)
    np.testing.assert_array_equal(y, x[idx])
    z = np.full(n + 8, np.nan, np.float32)
    scatter[(tessera.cdiv(n, 256),)](x, padded, z, n, BLOCK=256)
    want = np.full(n + 8, np.nan, np.float32)
    want[idx] = x
    np.testing.assert_array_equal(z, want)
