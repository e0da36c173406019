"""Tensor descriptors' reductions and row gathers, as Triton 3.6 has them:
desc.atomic_add/min/max/and/or/xor(offsets, value) combine a block into the
tensor (in-bounds elements only), desc.gather(rows, column) reads the
one-row block at each row index and desc.scatter(value, rows, column) writes
it. Compiled for the CPU and in the interpreter, on ragged shapes, against
numpy; Triton's dtype rules are compile errors."""
import re

import numpy as np
import pytest

import tessera
import tessera.language as tl

OPS = {"add": np.add, "min": np.minimum, "max": np.maximum, "and": np.bitwise_and, "or": np.bitwise_or,
       "xor": np.bitwise_xor}


def _reduce(out_ptr, a_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr, KIND: tl.constexpr):
    desc = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    rows = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    cols = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    val = tl.load(a_ptr + rows * N + cols, mask=(rows < M) & (cols < N), other=0)
    at = [tl.program_id(0) * BM, tl.program_id(1) * BN]
    if KIND == "add":
        desc.atomic_add(at, val)
    elif KIND == "min":
        desc.atomic_min(at, val)
    elif KIND == "max":
        desc.atomic_max(at, val)
    elif KIND == "and":
        desc.atomic_and(at, val)
    elif KIND == "or":
        desc.atomic_or(at, val)
    else:
        desc.atomic_xor(at, val)


_compiled = tessera.jit(_reduce)
_interpreted = tessera.jit(target="interpreter")(_reduce)


@pytest.mark.parametrize("runner", ["cpu", "interpreter"])
@pytest.mark.parametrize("kind,dtype", [("add", np.float32), ("add", np.int32), ("add", np.uint64),
                                        ("min", np.int64), ("max", np.uint32), ("and", np.int32),
                                        ("or", np.uint64), ("xor", np.int64)])
def test_a_block_combines_into_the_tensor_inside_its_bounds(runner, kind, dtype):
    rng = np.random.default_rng()
    M, N, BM, BN = 19, 45, 8, 16  # ragged: the last blocks hang over
    if np.issubdtype(dtype, np.floating):
        a, out = rng.standard_normal((M, N)).astype(dtype), rng.standard_normal((M, N)).astype(dtype)
    else:
        info = np.iinfo(dtype)
        a = rng.integers(max(info.min, -2**40), min(info.max, 2**40), (M, N), dtype=dtype)
        out = rng.integers(max(info.min, -2**40), min(info.max, 2**40), (M, N), dtype=dtype)
    want = OPS[kind](out, a)
    kernel = _compiled if runner == "cpu" else _interpreted
    kernel[(tessera.cdiv(M, BM), tessera.cdiv(N, BN))](out, a, M, N, BM=BM, BN=BN, KIND=kind)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("kind,dtype,why", [("add", np.int64, "does not take int64"),
                                            ("min", np.float32, "does not take fp32"),
                                            ("xor", np.float16, "does not take fp16 elements$"),
                                            ("max", np.float16, "does not take fp16 elements on cpu .Triton.s 16-bit float min and max need")])
def test_dtypes_triton_refuses_are_compile_errors(kind, dtype, why):
    out = np.zeros((8, 16), dtype)
    with pytest.raises(tessera.CompilationError) as e:
        _compiled[(1, 1)](out, out.copy(), 8, 16, BM=8, BN=16, KIND=kind)
    assert re.search("descriptor atomic_%s %s" % (kind, why), str(e.value).splitlines()[0])


def _rows(out_ptr, in_ptr, idx_ptr, column, X, Y, R: tl.constexpr, C: tl.constexpr, SCATTER: tl.constexpr):
    desc = tl.make_tensor_descriptor(in_ptr if not SCATTER else out_ptr, [X, Y], [Y, 1], [1, C])
    rows = tl.load(idx_ptr + tl.arange(0, R))
    tile = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    if SCATTER:
        desc.scatter(tl.load(in_ptr + tile), rows, column)
    else:
        tl.store(out_ptr + tile, desc.gather(rows, column))


_rows_compiled = tessera.jit(_rows)
_rows_interpreted = tessera.jit(target="interpreter")(_rows)


@pytest.mark.parametrize("runner", ["cpu", "interpreter"])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int8])
@pytest.mark.parametrize("column", [0, 24])  # 24 + 32 > 40: the last columns are out of bounds
def test_gather_and_scatter_rows(runner, dtype, column):
    rng = np.random.default_rng()
    X, Y, R, C = 37, 40, 16, 32
    src = (rng.standard_normal((X, Y)) * 50).astype(dtype)
    rows = rng.permutation(X + 4)[:R].astype(np.int32)  # some past the last row
    kernel = _rows_compiled if runner == "cpu" else _rows_interpreted
    inside_cols = np.arange(column, column + C) < Y
    padded = np.zeros((X + 4, Y + C), dtype)
    padded[:X, :Y] = src
    got = np.full((R, C), 7, dtype)
    kernel[(1,)](got, src, rows, column, X, Y, R=R, C=C, SCATTER=False)
    np.testing.assert_array_equal(got, padded[rows, column:column + C])

    values = (rng.standard_normal((R, C)) * 50).astype(dtype)
    out = np.zeros((X, Y), dtype)
    kernel[(1,)](out, values, rows, column, X, Y, R=R, C=C, SCATTER=True)
    want = np.zeros((X, Y), dtype)
    for i, r in enumerate(rows):
        if r < X:
            want[r, column:column + C] = values[i, inside_cols]
    np.testing.assert_array_equal(out, want)
