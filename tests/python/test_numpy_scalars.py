"""numpy scalars as kernel arguments and constexprs (issue #52): each is the
Python number it holds (np.int64(7) the int 7, np.float32(0.5) the float
0.5, np.bool_(True) True), in compiled launches, warm launches and the
interpreter; a 0-d array stays an array (a pointer)."""

import numpy as np
import pytest

import tessera
import tessera.language as tl
from tessera import interpreter
from tessera._specialize import specialize_arg, constexpr_text


@tessera.jit
def _store(o_ptr, n):
    tl.store(o_ptr, n)


@tessera.jit
def _twice(o_ptr, f):
    tl.store(o_ptr, f * 2.0)


@tessera.jit
def _fill(o_ptr, BLOCK: tl.constexpr, F: tl.constexpr, B: tl.constexpr):
    v = tl.zeros([BLOCK], dtype=tl.float32) + F
    if B:
        v = v + 1.0
    tl.store(o_ptr + tl.arange(0, BLOCK), v)


INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOATS = [np.float16, np.float32, np.float64]


@pytest.mark.parametrize("t", INTS)
def test_integer_scalars_specialize_as_their_value(t):
    for v in (7, 1, 32):
        assert specialize_arg(t(v))[0] == specialize_arg(v)[0]
        assert specialize_arg(t(v))[1].value == v
    assert specialize_arg(np.int64(2**40 + 3))[0] == "i64"
    assert specialize_arg(np.uint64(2**63 + 5))[0] == "u64"


def test_bool_and_float_scalars():
    assert specialize_arg(np.bool_(True))[0] == "i1"
    for t in FLOATS:
        ty, value, device = specialize_arg(t(0.5))
        assert (ty, value.value, device) == ("fp32", 0.5, None)
    assert constexpr_text(np.int64(1024)) == "1024"
    assert constexpr_text(np.float64(1024.0)) == "1024.0"
    assert constexpr_text(np.bool_(True)) == "True"
    assert specialize_arg(np.array(5, np.int32))[0].startswith("*i32")  # a 0-d array: a pointer


@pytest.mark.parametrize("interpret", [False, True])
def test_launches(cpu_target, interpret):
    def run():
        for t in INTS:
            for v in (7, 1, 32):
                for _ in range(3):  # cold, then warm launches
                    o = np.zeros(1, np.int64)
                    _store[(1,)](o, t(v))
                    assert o[0] == v, (t, v, o)
        o = np.zeros(1, np.uint64)
        _store[(1,)](o, np.uint64(2**63 + 5))
        assert o[0] == 2**63 + 5
        o = np.zeros(1, np.int32)
        _store[(1,)](o, np.bool_(True))
        assert o[0] == 1
        for t in FLOATS:
            for _ in range(3):
                o = np.zeros(1, np.float32)
                _twice[(1,)](o, t(0.5))
                assert o[0] == 1.0, t
        for block in (np.int64(64), np.int32(64), 64):
            for f in (np.float64(3.0), np.float32(3.0), 3.0):
                for b in (np.bool_(True), True):
                    o = np.zeros(64, np.float32)
                    _fill[(1,)](o, BLOCK=block, F=f, B=b)
                    assert (o == 4.0).all(), (block, f, b)
    if interpret:
        with interpreter.enabled():
            run()
    else:
        run()
        assert len({k for k in _fill.cache}) == 1  # np.int64(64) and 64 are one specialization
