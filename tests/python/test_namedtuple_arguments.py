"""Namedtuples in kernels, as Triton 3.x has them: a namedtuple argument is a
tuple argument whose elements the kernel also reads by field (`X.ptr`); a
namedtuple class reached through the kernel's globals makes one (by position
or keyword, its defaults filling the last fields); they pass to and return
from @jit functions with their fields."""

import collections
from typing import NamedTuple

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera._checked import OutOfBoundsError
from tessera import CompilationError


class Function(NamedTuple):
    fn: tl.constexpr
    captured: tuple


class Matrix(NamedTuple):
    ptr: object
    shape: tuple
    stride: tuple


Point = collections.namedtuple("Point", "x y z", defaults=(7,))


@tessera.jit
def _scale(x, factor_ptr, offset):
    return x * tl.load(factor_ptr) + offset


@tessera.jit
def _as_matrix(shape, ptr, stride):
    return Matrix(shape=shape, ptr=ptr, stride=stride)  # keywords in another order than the fields


@tessera.jit
def _in_bounds(m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)[:, None]
    cols = tl.arange(0, BLOCK_N)[None, :]
    return (rows < m.shape[0]) & (cols < m.shape[1])


@tessera.jit
def _apply(closure, src, dst, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)[:, None]
    cols = tl.arange(0, BLOCK_N)[None, :]
    x_m = _as_matrix(src.shape, src.ptr, src.stride)
    x = tl.load(x_m.ptr + rows * x_m.stride[0] + cols * x_m.stride[1], mask=_in_bounds(x_m, BLOCK_M, BLOCK_N), other=0)
    y = closure.fn(x, *closure.captured)
    tl.store(dst.ptr + rows * dst.stride[0] + cols * dst.stride[1], y, mask=_in_bounds(dst, BLOCK_M, BLOCK_N))


def test_namedtuple_arguments_made_passed_and_returned():
    rng = np.random.default_rng()
    x = rng.standard_normal((24, 20)).astype(np.float32)
    y = np.full((13, 9), np.nan, np.float32)  # ragged: a corner of x
    factor = np.array([rng.uniform(1, 3)], np.float32)
    src = Matrix(x, x.shape, tuple(s // 4 for s in x.strides))
    dst = Matrix(y, y.shape, tuple(s // 4 for s in y.strides))
    _apply[(1,)](Function(_scale, (factor, 0.5)), src, dst, BLOCK_M=16, BLOCK_N=16)
    want = x[:13, :9].astype(np.float64) * np.float64(factor[0]) + 0.5
    np.testing.assert_allclose(y, want, rtol=1e-6, atol=1e-6 * (np.abs(want).max() + 0.5))


@tessera.jit
def _fields(out, p, q: tl.constexpr):
    made = Point(p.x, y=p.z)          # z from Point's default
    tl.static_assert(made.z == 7)
    tl.static_assert(q.y == 5)        # a namedtuple given as a tl.constexpr
    tl.store(out + 0, made.x)
    tl.store(out + 1, made.y)
    tl.store(out + 2, made[2] + len(made._fields))
    a, b, c = p
    tl.store(out + 3, a + b + c + q.x)


def test_fields_positions_defaults_and_constexpr_namedtuples():
    out = np.full(4, -1, np.int32)
    _fields[(1,)](out, Point(3, 4, 5), Point(2, 5, 0))
    np.testing.assert_array_equal(out, [3, 5, 10, 14])


Swapped = collections.namedtuple("Swapped", "y x")


@tessera.jit
def _read_x(out, p):
    tl.store(out, p.x)


def test_classes_with_the_same_shape_but_other_fields_compile_apart():
    out = np.full(1, -1, np.int32)
    _read_x[(1,)](out, Point(10, 20, 30))
    assert out[0] == 10
    _read_x[(1,)](out, Swapped(10, 20))  # x is the second element here
    assert out[0] == 20


@tessera.jit
def _pick(t):
    return t[0] * t[1]


@tessera.jit
def _through_a_device_function(out, x):
    tl.store(out + 0, _pick((x, 4)))
    tl.store(out + 1, _pick((x, 8)))  # the same function, another compile-time element


def test_a_device_function_is_compiled_per_compile_time_element():
    out = np.full(2, -1, np.int32)
    _through_a_device_function[(1,)](out, 3)
    np.testing.assert_array_equal(out, [12, 24])


@tessera.jit
def _missing_field(out, p):
    tl.store(out, p.w)


@tessera.jit
def _bad_construction(out, KIND: tl.constexpr):
    if KIND == 0:
        p = Point(1)
    elif KIND == 1:
        p = Point(1, 2, 3, 4)
    elif KIND == 2:
        p = Point(1, 2, w=3)
    else:
        p = Point(1, 2, x=3)
    tl.store(out, p[0])


def test_errors_name_the_class_and_its_fields():
    out = np.zeros(1, np.int32)
    with pytest.raises(CompilationError, match=r"namedtuple Point has no attribute 'w' \(its fields: x, y, z\)"):
        _missing_field[(1,)](out, Point(1, 2, 3))
    for kind, message in enumerate(["Point\\(\\) is missing field 'y'", "Point\\(\\) takes 3 fields, 4 were given",
                                    "Point\\(\\) has no field 'w'", "Point\\(\\) got field 'x' twice"]):
        with pytest.raises(CompilationError, match=message):
            _bad_construction[(1,)](out, KIND=kind)


@tessera.jit
def _out_of_bounds(m):
    tl.store(m.ptr + tl.arange(0, 8), tl.arange(0, 8))


def test_the_checked_mode_names_a_field():
    y = np.zeros(4, np.int32)
    with pytest.raises(OutOfBoundsError, match=r"m\.ptr"):
        tessera.jit(_out_of_bounds.fn, debug=True)[(1,)](Matrix(y, y.shape, (1,)))


def test_the_interpreter_runs_the_same_kernel():
    rng = np.random.default_rng()
    x = rng.standard_normal((8, 8)).astype(np.float32)
    y = np.full((8, 8), np.nan, np.float32)
    factor = np.array([2.0], np.float32)
    kernel = tessera.jit(_apply.fn, target="interpreter")
    kernel[(1,)](Function(_scale, (factor, 1.0)), Matrix(x, x.shape, (8, 1)), Matrix(y, y.shape, (8, 1)),
                 BLOCK_M=8, BLOCK_N=8)
    np.testing.assert_allclose(y, x.astype(np.float64) * 2 + 1, rtol=1e-6)
