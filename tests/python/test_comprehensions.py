"""List comprehensions and generator expressions in kernels (Triton 3.6
takes `tl.tuple([f(v) for v in t])`): they unroll while compiling, over
tuples, enumerate/zip of tuples and ranges with compile-time bounds,
filtered by compile-time conditions, nested clauses outermost first; their
targets stay their own. The interpreter runs the same Python."""

import numpy as np
import pytest

import tessera
import tessera.language as tl


@tessera.jit
def _increment(values):
    return tl.tuple([v + 1 for v in values])


@tessera.jit
def _store_all(ptrs, values):
    for i in tl.static_range(len(values)):
        tl.store(ptrs[i], values[i])


@tessera.jit
def _index(_0, ptrs, _1: tl.constexpr, values, _2):
    _store_all(ptrs, _increment(values))


@pytest.mark.parametrize("target", [None, "interpreter"])
@pytest.mark.parametrize("size", [0, 1, 3])
def test_a_comprehension_over_a_tuple_argument(size, target):
    rng = np.random.default_rng()
    values = tuple(float(v) for v in rng.uniform(-8, 8, size))
    outs = tuple(np.full(1, np.nan, np.float32) for _ in range(size))
    kernel = tessera.jit(_index.fn, target=target) if target else _index
    kernel[(1,)](0, outs, 0, values, 0)
    for out, v in zip(outs, values):
        assert out[0] == np.float32(np.float32(v) + 1)


@tessera.jit
def _rows(x_ptr, out_ptr, N: tl.constexpr, ROWS: tl.constexpr):
    cols = tl.arange(0, N)
    # one tile per even row, loaded, scaled by its row number
    tiles = [tl.load(x_ptr + r * N + cols) * r for r in range(ROWS) if r % 2 == 0]
    total = tl.zeros((N,), tl.float32)
    for i in tl.static_range(len(tiles)):
        total += tiles[i]
    tl.store(out_ptr + cols, total)


@pytest.mark.parametrize("target", [None, "interpreter"])
def test_tiles_made_by_a_filtered_comprehension(target):
    rng = np.random.default_rng()
    x = rng.standard_normal((7, 16)).astype(np.float32)
    out = np.full(16, np.nan, np.float32)
    kernel = tessera.jit(_rows.fn, target=target) if target else _rows
    kernel[(1,)](x, out, N=16, ROWS=7)
    want = sum(x[r].astype(np.float64) * r for r in range(0, 7, 2))
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)


@tessera.jit
def _shapes(out_ptr, pairs, scales):
    i = 100
    products = tuple(a * b for a, b in pairs)
    weighted = [p * s for p, s in zip(products, scales)]
    numbered = [n * w for n, w in enumerate(weighted, start=1)]
    nested = [a + b for a in range(3) for b in (10, 20) if a != 1]
    tl.static_assert(len(nested) == 4 and nested[3] == 22)
    tl.static_assert(i == 100)  # the comprehensions' targets did not leak
    for k in tl.static_range(len(numbered)):
        tl.store(out_ptr + k, numbered[k])


@pytest.mark.parametrize("target", [None, "interpreter"])
def test_generator_expressions_enumerate_zip_and_nesting(target):
    rng = np.random.default_rng()
    pairs = tuple((int(a), int(b)) for a, b in rng.integers(-50, 50, (3, 2)))
    scales = (3, 5, 7, 9)  # zip stops at the shorter
    out = np.full(3, -1, np.int32)
    kernel = tessera.jit(_shapes.fn, target=target) if target else _shapes
    kernel[(1,)](out, pairs, scales)
    want = [(n + 1) * a * b * s for n, ((a, b), s) in enumerate(zip(pairs, scales))]
    np.testing.assert_array_equal(out, want)
