"""Triton's typing rules on the Python side: the dtype a Python number takes
as a tensor (semantic.to_tensor), the common type of two operands
(semantic.computation_type_impl) and the checks of Python numbers against
it. They are the frontend's rules (frontend/Semantics.cpp), written once for
what runs in Python: the interpreter's arithmetic and, at compile time, the
type legalization extern functions ask for (core.binary_op_type_legalization).

Layer 0, binding (python/tessera/__init__.py lists the layers)."""

import numbers

from . import _types


def constant_dtype(x):
    """The dtype of a Python number as a tensor: bool int1; an int the first
    of int32, uint32, int64, uint64 that holds it; a float fp32 unless only
    fp64 holds it (NaN, zero and infinities are fp32)."""
    if isinstance(x, bool):
        return _types.int1
    if isinstance(x, numbers.Integral):
        x = int(x)
        for lo, hi, dt in ((-2**31, 2**31, _types.int32), (2**31, 2**32, _types.uint32),
                           (-2**63, 2**63, _types.int64), (2**63, 2**64, _types.uint64)):
            if lo <= x < hi:
                return dt
        raise ValueError("Nonrepresentable integer %d." % x)
    if isinstance(x, numbers.Real):
        ax = abs(float(x))
        if ax in (0.0, float("inf")) or ax != ax or 2**-126 <= ax <= (2 - 2**-23) * 2**127:
            return _types.float32
        return _types.float64
    raise TypeError("cannot make a tile of %r" % (x,))


def integer_promote(a, b):
    """The wider of two integer types; the unsigned one at equal width."""
    if a.int_signedness == b.int_signedness:
        return a if a.int_bitwidth > b.int_bitwidth else b
    if a.is_int_unsigned():
        return a if a.int_bitwidth >= b.int_bitwidth else b
    return b if b.int_bitwidth >= a.int_bitwidth else a


def computation_type(a, a_const, b, b_const, div_or_mod):
    """The type two operands of dtypes `a` and `b` are computed in; `a_const`
    / `b_const`: the operand is a Python number, which does not raise a
    tensor's kind (bool < uint < int < float)."""
    if a_const != b_const:
        const, tile = (a, b) if a_const else (b, a)
        if const.kind().value <= tile.kind().value:
            if div_or_mod and tile.name in ("fp16", "bf16"):
                return _types.float32
            return tile
    names = (a.name, b.name)
    if "fp64" in names:
        return _types.float64
    if "fp32" in names:
        return _types.float32
    if "fp16" in names:
        return _types.float32 if div_or_mod else _types.float16
    if names == ("bf16", "bf16"):
        return _types.float32 if div_or_mod else _types.bfloat16
    if "bf16" in names:
        return _types.float32
    if a.is_fp8() and b.is_fp8():
        return a if a == b else _types.float16
    if not a.is_int() or not b.is_int():
        raise TypeError("unexpected types %s and %s" % (a.name, b.name))
    if div_or_mod and a.int_signedness != b.int_signedness:
        raise TypeError("Cannot use /, //, or %% with %s and %s because they have different signedness; cast them "
                        "to the same signedness." % (a.name, b.name))
    return integer_promote(a, b)


def check_constant_fits(value, ret):
    """A Python integer combined with a tensor in integer type `ret` must fit it."""
    if not ret.is_int():
        return
    v = int(value)
    if v < 0 and ret.is_int_unsigned():
        raise ValueError("Cannot perform a binary operation between an unsigned tensor and a negative "
                         "scalar. Perform a explicit cast on one of them.")
    if not ret.get_int_min_value() <= v <= ret.get_int_max_value():
        raise ValueError("Scalar %d is out of range for type %s" % (v, ret.name))
