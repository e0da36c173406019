"""Tuples as kernel arguments, as Triton 3.x takes them: each runtime leaf
(an array, an integer, a float) is a kernel parameter of its own, specialized
as a top-level argument would be; None, tl.constexpr values, dtypes, @jit
functions and integers equal to 1 (where the parameter is specialized) are
compiled in; nesting is kept, so the kernel indexes and unpacks the tuple."""

import collections

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera._checked import OutOfBoundsError


@tessera.jit
def _scatter(outs, values, scale):
    for i in tl.static_range(len(outs)):
        tl.store(outs[i], values[i] * scale)


@pytest.mark.parametrize("size", [0, 1, 3])
def test_a_tuple_of_arrays_and_a_tuple_of_numbers(size):
    rng = np.random.default_rng()
    outs = tuple(np.full(1, np.nan, np.float32) for _ in range(size))
    values = tuple(float(v) for v in rng.uniform(-4, 4, size))
    _scatter[(1,)](outs, values, 2.5)
    for out, v in zip(outs, values):
        assert out[0] == np.float32(np.float32(v) * np.float32(2.5))


@tessera.jit
def _nested(out, pair, mixed):
    # mixed = (array, (int, None, array, tl.constexpr))
    tl.static_assert(mixed[1][1] is None)
    tl.static_assert(mixed[1][3] == 4)
    first, second = pair
    tl.store(out + 0, tl.load(mixed[0]))
    tl.store(out + 1, mixed[1][0])
    tl.store(out + 2, tl.load(mixed[1][2]))
    tl.store(out + 3, first + second + mixed[1][3])


def test_nested_tuples_with_compile_time_leaves():
    x0, x1 = np.array([8], np.int32), np.array([12], np.int32)
    out = np.full(4, -1, np.int32)
    _nested[(1,)](out, (5, 6), (x0, (7, None, x1, tl.constexpr(4))))
    np.testing.assert_array_equal(out, [8, 7, 12, 15])


@tessera.jit
def _strided_copy(x_ptr, y_ptr, shape: tl.constexpr, strides):
    tl.static_assert(isinstance(strides[1], tl.constexpr) and strides[1] == 1)  # specialized as Triton does
    rows = tl.arange(0, shape[0])[:, None]
    cols = tl.arange(0, shape[1])[None, :]
    tl.store(y_ptr + rows * shape[1] + cols, tl.load(x_ptr + rows * strides[0] + cols * strides[1]))


def test_a_shape_and_strides_as_tuples():
    x = np.random.default_rng().standard_normal((8, 16)).astype(np.float32)
    y = np.full((8, 8), np.nan, np.float32)
    view = x[:, :8]
    _strided_copy[(1,)](view, y, view.shape, tuple(s // 4 for s in view.strides))
    np.testing.assert_array_equal(y, view)


@tessera.jit
def _add_one(v):
    return v + 1


@tessera.jit
def _apply(out, fns_and_value):
    fn, value = fns_and_value
    tl.store(out, fn(value))


def test_a_jit_function_inside_a_tuple_is_compiled_in():
    out = np.zeros(1, np.int32)
    _apply[(1,)](out, (_add_one, 41))
    assert out[0] == 42


@tessera.jit
def _sum_pair(out, pair):
    tl.store(out, pair[0] + pair[1])


def test_each_leaf_is_specialized_and_keys_the_compile():
    kernel = tessera.JITFunction(_sum_pair.fn)
    out = np.zeros(1, np.int64)
    kernel[(1,)](out, (3, 4))
    kernel[(1,)](out, (3, 5))     # the same types: no new compile
    assert out[0] == 8 and len(kernel.cache) == 1
    kernel[(1,)](out, (3, 1))     # a 1 is compiled in
    kernel[(1,)](out, (3, 2**40))  # an i64 leaf
    assert out[0] == 3 + 2**40 and len(kernel.cache) == 3
    signatures = {key[0] for key in kernel.cache}
    assert signatures == {("*i64:16", "(i32, i32, )"), ("*i64:16", "(i32, constexpr, )"),
                          ("*i64:16", "(i32, i64:16, )")}


def test_do_not_specialize_keeps_a_leaf_of_1_at_run_time():
    kernel = tessera.jit(_sum_pair.fn, do_not_specialize=["pair"])
    out = np.zeros(1, np.int32)
    kernel[(1,)](out, (3, 1))
    kernel[(1,)](out, (3, 7))
    assert out[0] == 10 and len(kernel.cache) == 1


@tessera.jit
def _out_of_bounds(outs):
    tl.store(outs[1] + tl.arange(0, 8), tl.arange(0, 8))


def test_the_checked_mode_names_a_tuple_element():
    outs = (np.zeros(8, np.int32), np.zeros(4, np.int32))
    with pytest.raises(OutOfBoundsError, match=r"outs\[1\]"):
        tessera.jit(_out_of_bounds.fn, debug=True)[(1,)](outs)


@tessera.jit
def _tl_tuple(out, pair):
    made = tl.tuple((1, 2)) + tl.tuple([pair[0]])
    tl.static_assert(isinstance(pair, tl.tuple) and len(made) == 3)
    tl.store(out + 0, (tl.tuple((1, 2)) == (1, 2)).to(tl.int32))
    tl.store(out + 1, made[2])


def test_tl_tuple_is_python_s_tuple_in_kernels():
    out = np.zeros(2, np.int32)
    _tl_tuple[(1,)](out, (9, 4))
    np.testing.assert_array_equal(out, [1, 9])


@tessera.jit
def _constexpr_types(out, values):
    tl.static_assert(values[1].type == tl.constexpr_type(3))
    tl.static_assert(isinstance(values[1].type, tl.constexpr_type) and values[1].type.value == 3)
    tl.static_assert(not isinstance(values[0], tl.constexpr))
    tl.store(out, tl.load(values[0]) + values[1])


def test_a_compile_time_element_has_tritons_constexpr_type():
    x = np.array([8], np.int32)
    out = np.full(1, -1, np.int32)
    _constexpr_types[(1,)](out, (x, tl.constexpr(3)))
    assert out[0] == 11


Pair = collections.namedtuple("Pair", "a b")


@tessera.jit
def _equalities(out):
    tl.store(out + 0, (1, 2) == (1, 2))
    tl.store(out + 1, (1, 2) == (1, 1))
    tl.store(out + 2, Pair(1, 2) == (1, 2))     # a namedtuple equals a plain tuple, as in Python
    tl.store(out + 3, (1, 2.0, True) == (1.0, 2, 1))
    tl.store(out + 4, ((1, 2), 3) != ((1, 2), 3))


def test_tuples_compare_as_python_compares_them():
    out = np.full(5, -1, np.int32)
    _equalities[(1,)](out)
    np.testing.assert_array_equal(out, [1, 0, 1, 1, 0])
