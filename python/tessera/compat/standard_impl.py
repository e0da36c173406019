"""Triton's triton.language.standard helpers that are @jit functions of
their own, not language builtins (sort_impl), written in the language.

Layer 4, api (python/tessera/__init__.py lists the layers)."""

import tessera.language as tl
from ..jit import constexpr_function, jit


@jit
def sort_impl(x, k: tl.constexpr = None, dim: tl.constexpr = None, descending: tl.constexpr = 0):
    """x sorted along its last dimension, or its k smallest (k largest when
    descending) elements in order: Triton's bitonic sort_impl."""
    if k is None:
        return tl.sort(x, dim=dim, descending=descending)
    else:
        return tl.topk(x, k, dim=dim, descending=descending)


# Triton's private helpers of triton.language.standard that libraries import
# (FlagGems' topk takes _log2; reductions written by hand take the combine
# functions): the same names with the same results.

@constexpr_function
def _log2(i):
    """floor(log2(i)) for i >= 1; 0 below."""
    i = int(i)
    return i.bit_length() - 1 if i > 1 else 0


@constexpr_function
def _is_power_of_two(i):
    i = int(i)
    return i != 0 and i & (i - 1) == 0


@constexpr_function
def _pick_sum_dtype(in_dtype, dtype):
    """tl.sum's accumulator: `dtype` when given, else int32/uint32 for
    narrower integers (of the same sign; int1 is unsigned, as in Triton),
    else None (the input's own)."""
    if dtype is not None:
        return dtype
    if in_dtype.is_int() and in_dtype.int_bitwidth < 32:
        return tl.int32 if in_dtype.is_int_signed() else tl.uint32
    return None


@constexpr_function
def _get_flip_dim(dim, shape):
    """The non-negative dimension tl.flip works along (the last for None)."""
    return len(shape) - 1 if dim is None else (dim + len(shape) if dim < 0 else dim)


@jit
def _arg_combine(value1, index1, value2, index2, tie_break_left, LARGER: tl.constexpr):
    # The first operand wins when better (larger, or smaller), or (tie_break_left) equal with the smaller index.
    if LARGER:
        first = value1 > value2
    else:
        first = value1 < value2
    if tie_break_left:
        first = first | ((value1 == value2) & (index1 < index2))
    return tl.where(first, value1, value2), tl.where(first, index1, index2)


@jit
def _argmax_combine(value1, index1, value2, index2, tie_break_left):
    return _arg_combine(value1, index1, value2, index2, tie_break_left, True)


@jit
def _argmax_combine_tie_break_left(value1, index1, value2, index2):
    return _arg_combine(value1, index1, value2, index2, True, True)


@jit
def _argmax_combine_tie_break_fast(value1, index1, value2, index2):
    return _arg_combine(value1, index1, value2, index2, False, True)


@jit
def _argmin_combine(value1, index1, value2, index2, tie_break_left):
    return _arg_combine(value1, index1, value2, index2, tie_break_left, False)


@jit
def _argmin_combine_tie_break_left(value1, index1, value2, index2):
    return _arg_combine(value1, index1, value2, index2, True, False)


@jit
def _argmin_combine_tie_break_fast(value1, index1, value2, index2):
    return _arg_combine(value1, index1, value2, index2, False, False)


@jit
def _elementwise_max(a, b):
    return tl.maximum(a, b)


@jit
def _elementwise_min(a, b):
    return tl.minimum(a, b)


@jit
def _sum_combine(a, b):
    return a + b


@jit
def _prod_combine(a, b):
    return a * b


@jit
def _xor_combine(a, b):
    return a ^ b


@jit
def _or_combine(x, y):
    return x | y


PRIVATE_NAMES = ("_log2", "_is_power_of_two", "_pick_sum_dtype", "_get_flip_dim", "_argmax_combine",
                 "_argmax_combine_tie_break_left", "_argmax_combine_tie_break_fast", "_argmin_combine",
                 "_argmin_combine_tie_break_left", "_argmin_combine_tie_break_fast", "_elementwise_max",
                 "_elementwise_min", "_sum_combine", "_prod_combine", "_xor_combine", "_or_combine")
