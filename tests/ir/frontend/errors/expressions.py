# RUN: not tessera compile %s --entry int_too_wide --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=INT_TOO_WIDE
# RUN: not tessera compile %s --entry full_str --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=FULL_STR
# RUN: not tessera compile %s --entry where_tuple --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=WHERE_TUPLE
# RUN: not tessera compile %s --entry broadcast_fewer --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=BROADCAST_FEWER
# RUN: not tessera compile %s --entry const_operands --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=CONST_OPERANDS
# RUN: not tessera compile %s --entry const_float_bits --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=CONST_FLOAT_BITS
# RUN: not tessera compile %s --entry const_overflow --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=CONST_OVERFLOW
# RUN: not tessera compile %s --entry const_mul_overflow --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=CONST_MUL_OVERFLOW
# RUN: not tessera compile %s --entry const_pow_one --signature "*i64" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=CONST_POW_ONE
# RUN: not tessera compile %s --entry const_div_zero --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=CONST_DIV_ZERO
# RUN: not tessera compile %s --entry const_float_floordiv_zero --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=CONST_FLOAT_FLOORDIV_ZERO
# RUN: not tessera compile %s --entry const_int_mod_zero --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=CONST_INT_MOD_ZERO
# RUN: not tessera compile %s --entry const_shift --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=CONST_SHIFT
# RUN: not tessera compile %s --entry const_matmul --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=CONST_MATMUL
# RUN: not tessera compile %s --entry tensor_operand --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=TENSOR_OPERAND
# RUN: not tessera compile %s --entry tensor_matmul --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=TENSOR_MATMUL
# RUN: not tessera compile %s --entry in_operand --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=IN_OPERAND
# RUN: not tessera compile %s --entry compare_str --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=COMPARE_STR
# RUN: not tessera compile %s --entry compare_ptr --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=COMPARE_PTR
# RUN: not tessera compile %s --entry tuple_slice_bound --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=TUPLE_SLICE_BOUND
# RUN: not tessera compile %s --entry tuple_index_tensor --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=TUPLE_INDEX_TENSOR
# RUN: not tessera compile %s --entry tuple_two_indices --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=TUPLE_TWO_INDICES
# RUN: not tessera compile %s --entry subscript_none --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=SUBSCRIPT_NONE
# RUN: not tessera compile %s --entry extra_attr --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=EXTRA_ATTR
# RUN: not tessera compile %s --entry hip_attr --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=HIP_ATTR
# RUN: not tessera compile %s --entry libdevice_fn --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=LIBDEVICE_FN
# RUN: not tessera compile %s --entry unary_str --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=UNARY_STR
# RUN: not tessera compile %s --entry unary_tuple --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=UNARY_TUPLE
# RUN: not tessera compile %s --entry block_attr --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=BLOCK_ATTR
# RUN: not tessera compile %s --entry tuple_attr --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=TUPLE_ATTR
# RUN: not tessera compile %s --entry external_module --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=EXTERNAL_MODULE
# Errors in expressions: operators and compile-time arithmetic (frontend/Semantics.cpp),
# subscripts and attributes (frontend/CodeGenExpr.cpp).
import numpy as np
import tessera
import tessera.language as tl


# INT_TOO_WIDE: expressions.py:[[@LINE+5]]:9: error: integer -18446744073709551615 does not fit in 64 bits
# INT_TOO_WIDE-NEXT: {{^}}    x = n + -18446744073709551615
# INT_TOO_WIDE-NEXT: {{^}}        ^
@tessera.jit
def int_too_wide(n):
    x = n + -18446744073709551615


# FULL_STR: expressions.py:[[@LINE+5]]:9: error: expected a number or a tensor, found str "a"
# FULL_STR-NEXT: {{^}}    x = tl.full([4], 'a', tl.int32)
# FULL_STR-NEXT: {{^}}        ^
@tessera.jit
def full_str(n):
    x = tl.full([4], 'a', tl.int32)


# WHERE_TUPLE: expressions.py:[[@LINE+5]]:9: error: expected a number or a tensor, found tuple of 2
# WHERE_TUPLE-NEXT: {{^}}    x = tl.where(n > 0, (1, 2), 3)
# WHERE_TUPLE-NEXT: {{^}}        ^
@tessera.jit
def where_tuple(n):
    x = tl.where(n > 0, (1, 2), 3)


# BROADCAST_FEWER: expressions.py:[[@LINE+5]]:9: error: cannot broadcast tile<4x4xf32> to fewer dimensions
# BROADCAST_FEWER-NEXT: {{^}}    x = tl.broadcast_to(tl.zeros([4, 4], tl.float32), (4,))
# BROADCAST_FEWER-NEXT: {{^}}        ^
@tessera.jit
def broadcast_fewer(n):
    x = tl.broadcast_to(tl.zeros([4, 4], tl.float32), (4,))


# CONST_OPERANDS: expressions.py:[[@LINE+5]]:9: error: unsupported operand types for -: str "a" and int 1
# CONST_OPERANDS-NEXT: {{^}}    x = 'a' - 1
# CONST_OPERANDS-NEXT: {{^}}        ^
@tessera.jit
def const_operands(n):
    x = 'a' - 1


# CONST_FLOAT_BITS: expressions.py:[[@LINE+5]]:9: error: unsupported operand types for &: float 1.5 and int 1
# CONST_FLOAT_BITS-NEXT: {{^}}    x = 1.5 & 1
# CONST_FLOAT_BITS-NEXT: {{^}}        ^
@tessera.jit
def const_float_bits(n):
    x = 1.5 & 1


# CONST_OVERFLOW: expressions.py:[[@LINE+5]]:9: error: compile-time integer overflow: 18446744073709551616
# CONST_OVERFLOW-NEXT: {{^}}    x = 18446744073709551615 + 1
# CONST_OVERFLOW-NEXT: {{^}}        ^
@tessera.jit
def const_overflow(n):
    x = 18446744073709551615 + 1


# CONST_MUL_OVERFLOW: expressions.py:[[@LINE+5]]:9: error: compile-time integer overflow in 18446744073709551615 * 18446744073709551615
# CONST_MUL_OVERFLOW-NEXT: {{^}}    x = 18446744073709551615 * 18446744073709551615
# CONST_MUL_OVERFLOW-NEXT: {{^}}        ^
@tessera.jit
def const_mul_overflow(n):
    x = 18446744073709551615 * 18446744073709551615


# CONST_POW_ONE: expressions.py:[[@LINE+7]]:9: error: compile-time integer overflow in **
# CONST_POW_ONE-NEXT: {{^}}    x = 2 ** 64
# CONST_POW_ONE-NEXT: {{^}}        ^
@tessera.jit
def const_pow_one(X):
    tl.static_assert(1 ** 18446744073709551615 == 1)
    tl.static_assert((-1) ** 18446744073709551615 == -1)
    x = 2 ** 64


# CONST_DIV_ZERO: expressions.py:[[@LINE+5]]:9: error: division by zero in a compile-time expression
# CONST_DIV_ZERO-NEXT: {{^}}    x = 1 / 0
# CONST_DIV_ZERO-NEXT: {{^}}        ^
@tessera.jit
def const_div_zero(n):
    x = 1 / 0


# CONST_FLOAT_FLOORDIV_ZERO: expressions.py:[[@LINE+5]]:9: error: division by zero in a compile-time expression
# CONST_FLOAT_FLOORDIV_ZERO-NEXT: {{^}}    x = 1.5 // 0
# CONST_FLOAT_FLOORDIV_ZERO-NEXT: {{^}}        ^
@tessera.jit
def const_float_floordiv_zero(n):
    x = 1.5 // 0


# CONST_INT_MOD_ZERO: expressions.py:[[@LINE+5]]:9: error: division by zero in a compile-time expression
# CONST_INT_MOD_ZERO-NEXT: {{^}}    x = 7 % 0
# CONST_INT_MOD_ZERO-NEXT: {{^}}        ^
@tessera.jit
def const_int_mod_zero(n):
    x = 7 % 0


# CONST_SHIFT: expressions.py:[[@LINE+5]]:9: error: negative shift count
# CONST_SHIFT-NEXT: {{^}}    x = 1 >> -1
# CONST_SHIFT-NEXT: {{^}}        ^
@tessera.jit
def const_shift(n):
    x = 1 >> -1


# CONST_MATMUL: expressions.py:[[@LINE+5]]:9: error: unsupported operator @ on compile-time values
# CONST_MATMUL-NEXT: {{^}}    x = 2 @ 3
# CONST_MATMUL-NEXT: {{^}}        ^
@tessera.jit
def const_matmul(n):
    x = 2 @ 3


# TENSOR_OPERAND: expressions.py:[[@LINE+5]]:9: error: unsupported operand for +: None
# TENSOR_OPERAND-NEXT: {{^}}    x = n + None
# TENSOR_OPERAND-NEXT: {{^}}        ^
@tessera.jit
def tensor_operand(n):
    x = n + None


# TENSOR_MATMUL: expressions.py:[[@LINE+6]]:9: error: @ is not supported on tensors; use tl.dot
# TENSOR_MATMUL-NEXT: {{^}}    y = x @ x
# TENSOR_MATMUL-NEXT: {{^}}        ^
@tessera.jit
def tensor_matmul(X):
    x = tl.zeros([16, 16], tl.float32)
    y = x @ x


# IN_OPERAND: expressions.py:[[@LINE+5]]:9: error: 'in' needs a compile-time value and a tuple
# IN_OPERAND-NEXT: {{^}}    x = n in (1, 2)
# IN_OPERAND-NEXT: {{^}}        ^
@tessera.jit
def in_operand(n):
    x = n in (1, 2)


# COMPARE_STR: expressions.py:[[@LINE+5]]:9: error: cannot compare a tensor with str "a"
# COMPARE_STR-NEXT: {{^}}    x = n < 'a'
# COMPARE_STR-NEXT: {{^}}        ^
@tessera.jit
def compare_str(n):
    x = n < 'a'


# COMPARE_PTR: expressions.py:[[@LINE+5]]:9: error: cannot compare pointer<fp32> with int32
# COMPARE_PTR-NEXT: {{^}}    x = X < 1
# COMPARE_PTR-NEXT: {{^}}        ^
@tessera.jit
def compare_ptr(X):
    x = X < 1


# TUPLE_SLICE_BOUND: expressions.py:[[@LINE+5]]:18: error: tuple slice bounds must be compile-time integers
# TUPLE_SLICE_BOUND-NEXT: {{^}}    x = (1, 2)[0:n]
# TUPLE_SLICE_BOUND-NEXT: {{^}}                 ^
@tessera.jit
def tuple_slice_bound(n):
    x = (1, 2)[0:n]


# TUPLE_INDEX_TENSOR: expressions.py:[[@LINE+5]]:16: error: tuple indices must be compile-time integers, found tensor of type i32
# TUPLE_INDEX_TENSOR-NEXT: {{^}}    x = (1, 2)[n]
# TUPLE_INDEX_TENSOR-NEXT: {{^}}               ^
@tessera.jit
def tuple_index_tensor(n):
    x = (1, 2)[n]


# TUPLE_TWO_INDICES: expressions.py:[[@LINE+5]]:16: error: a tuple takes one index or slice, found 2 indices
# TUPLE_TWO_INDICES-NEXT: {{^}}    x = (1, 2)[0:1, 0]
# TUPLE_TWO_INDICES-NEXT: {{^}}               ^
@tessera.jit
def tuple_two_indices(n):
    x = (1, 2)[0:1, 0]


# SUBSCRIPT_NONE: expressions.py:[[@LINE+5]]:9: error: None cannot be subscripted
# SUBSCRIPT_NONE-NEXT: {{^}}    x = None[0]
# SUBSCRIPT_NONE-NEXT: {{^}}        ^
@tessera.jit
def subscript_none(n):
    x = None[0]


# EXTRA_ATTR: expressions.py:[[@LINE+5]]:9: error: tl.extra has no attribute 'bogus'
# EXTRA_ATTR-NEXT: {{^}}    x = tl.extra.bogus
# EXTRA_ATTR-NEXT: {{^}}        ^
@tessera.jit
def extra_attr(n):
    x = tl.extra.bogus


# HIP_ATTR: expressions.py:[[@LINE+5]]:9: error: tl.extra.hip has no attribute 'bogus' in Tessera (it has libdevice and memrealtime)
# HIP_ATTR-NEXT: {{^}}    x = tl.extra.hip.bogus()
# HIP_ATTR-NEXT: {{^}}        ^
@tessera.jit
def hip_attr(n):
    x = tl.extra.hip.bogus()


# LIBDEVICE_FN: expressions.py:[[@LINE+5]]:9: error: libdevice has no function 'bogus' in Tessera
# LIBDEVICE_FN-NEXT: {{^}}    x = tl.extra.libdevice.bogus(n)
# LIBDEVICE_FN-NEXT: {{^}}        ^
@tessera.jit
def libdevice_fn(n):
    x = tl.extra.libdevice.bogus(n)


# UNARY_STR: expressions.py:[[@LINE+5]]:9: error: bad operand for unary -: str "a"
# UNARY_STR-NEXT: {{^}}    x = -'a'
# UNARY_STR-NEXT: {{^}}        ^
@tessera.jit
def unary_str(n):
    x = -'a'


# UNARY_TUPLE: expressions.py:[[@LINE+5]]:9: error: bad operand for unary -: tuple of 2
# UNARY_TUPLE-NEXT: {{^}}    x = -(1, n)
# UNARY_TUPLE-NEXT: {{^}}        ^
@tessera.jit
def unary_tuple(n):
    x = -(1, n)


# BLOCK_ATTR: expressions.py:[[@LINE+6]]:9: error: block pointer has no attribute 'offsets'
# BLOCK_ATTR-NEXT: {{^}}    x = p.offsets
# BLOCK_ATTR-NEXT: {{^}}        ^
@tessera.jit
def block_attr(X):
    p = tl.make_block_ptr(X, (8,), (1,), (0,), (4,), (0,))
    x = p.offsets


# TUPLE_ATTR: expressions.py:[[@LINE+5]]:9: error: tuple of 2 has no attribute 'shape'
# TUPLE_ATTR-NEXT: {{^}}    x = (1, n).shape
# TUPLE_ATTR-NEXT: {{^}}        ^
@tessera.jit
def tuple_attr(n):
    x = (1, n).shape


# EXTERNAL_MODULE: expressions.py:[[@LINE+5]]:9: error: module 'numpy' is not available inside kernels
# EXTERNAL_MODULE-NEXT: {{^}}    x = np.zeros(4)
# EXTERNAL_MODULE-NEXT: {{^}}        ^
@tessera.jit
def external_module(n):
    x = np.zeros(4)
