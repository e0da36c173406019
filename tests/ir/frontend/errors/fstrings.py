# RUN: not tessera compile %s --entry runtime_tile --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=RUNTIME_TILE
# RUN: not tessera compile %s --entry runtime_scalar --signature "*fp32,i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=RUNTIME_SCALAR
# RUN: not tessera compile %s --entry runtime_in_tuple --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=RUNTIME_IN_TUPLE
# RUN: not tessera compile %s --entry function_value --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=FUNCTION_VALUE
# RUN: not tessera compile %s --entry bad_spec --signature "*fp32" -D N=12 2>&1 | FileCheck %s --strict-whitespace --check-prefix=BAD_SPEC
# RUN: not tessera compile %s --entry nested_spec --signature "*fp32" -D N=12 2>&1 | FileCheck %s --strict-whitespace --check-prefix=NESTED_SPEC
# RUN: not tessera compile %s --entry repr_unicode --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=REPR_UNICODE
# RUN: not tessera compile %s --entry static_assert_message --signature "*fp32" -D BLOCK=256 2>&1 | FileCheck %s --strict-whitespace --check-prefix=STATIC_ASSERT_MESSAGE
import tessera
import tessera.language as tl

WIDTH = "x"


# An f-string's fields must be compile-time values, as in Triton; the error
# points at the field's expression inside the string.
# RUNTIME_TILE: fstrings.py:[[@LINE+6]]:29: error: f-string value 'x' is not a compile-time constant (it is a tensor of type tile<4xf32>): f-strings in kernels format only constexprs (tl.constexpr parameters, globals, literals), as in Triton; formatting runtime values is not supported (tl.device_print prints them)
# RUNTIME_TILE-NEXT: {{^}}    tl.static_print(f"x is {x} ({x + 1})")
# RUNTIME_TILE-NEXT: {{^}}                            ^
@tessera.jit
def runtime_tile(X):
    x = tl.load(X + tl.arange(0, 4))
    tl.static_print(f"x is {x} ({x + 1})")


# A runtime scalar argument is not a compile-time value either.
# RUNTIME_SCALAR: fstrings.py:[[@LINE+5]]:37: error: f-string value 'n * 2' is not a compile-time constant (it is a tensor of type i32): f-strings in kernels format only constexprs (tl.constexpr parameters, globals, literals), as in Triton; formatting runtime values is not supported (tl.device_print prints them)
# RUNTIME_SCALAR-NEXT: {{^}}    tl.device_assert(n > 0, f"n is {n * 2}")
# RUNTIME_SCALAR-NEXT: {{^}}                                    ^
@tessera.jit
def runtime_scalar(X, n):
    tl.device_assert(n > 0, f"n is {n * 2}")


# RUNTIME_IN_TUPLE: fstrings.py:[[@LINE+6]]:24: error: f-string value 'x, 1' is not a compile-time constant (it is a tuple holding a tensor of type f32): f-strings in kernels format only constexprs (tl.constexpr parameters, globals, literals), as in Triton; formatting runtime values is not supported (tl.device_print prints them)
# RUNTIME_IN_TUPLE-NEXT: {{^}}    tl.device_print(f"{x, 1}", x)
# RUNTIME_IN_TUPLE-NEXT: {{^}}                       ^
@tessera.jit
def runtime_in_tuple(X):
    x = tl.load(X)
    tl.device_print(f"{x, 1}", x)


# FUNCTION_VALUE: fstrings.py:[[@LINE+5]]:28: error: f-string value 'tl.load' cannot be formatted: it is a builtin load (f-strings format numbers, strings, None, dtypes and tuples of them)
# FUNCTION_VALUE-NEXT: {{^}}    tl.static_print(f"{0} {tl.load}")
# FUNCTION_VALUE-NEXT: {{^}}                           ^
@tessera.jit
def function_value(X):
    tl.static_print(f"{0} {tl.load}")


# A format spec Python refuses: Python's words, at the spec.
# BAD_SPEC: fstrings.py:[[@LINE+5]]:30: error: f-string field {N + 1:.2d} cannot be formatted: Precision not allowed in integer format specifier
# BAD_SPEC-NEXT: {{^}}    tl.static_print(f"{N + 1:.2d}")
# BAD_SPEC-NEXT: {{^}}                             ^
@tessera.jit
def bad_spec(X, N: tl.constexpr):
    tl.static_print(f"{N + 1:.2d}")


# The field shows the spec as its nested fields made it.
# NESTED_SPEC: fstrings.py:[[@LINE+5]]:26: error: f-string field {N:>x5} cannot be formatted: Invalid format specifier '>x5' for object of type 'int'
# NESTED_SPEC-NEXT: {{^}}    tl.static_print(f"{N:>{WIDTH}5}")
# NESTED_SPEC-NEXT: {{^}}                         ^
@tessera.jit
def nested_spec(X, N: tl.constexpr):
    tl.static_print(f"{N:>{WIDTH}5}")


# Python's repr keeps printable non-ASCII characters, which needs its
# Unicode database beyond Latin-1: refused rather than guessed.
# REPR_UNICODE: fstrings.py:[[@LINE+5]]:24: error: f-string value '"→"' cannot be formatted: repr() of a string with characters beyond Latin-1 is not supported in kernels (which are printable depends on Python's Unicode database); use !s or ascii() (!a)
# REPR_UNICODE-NEXT: {{^}}    tl.static_print(f'{"→"!r}')
# REPR_UNICODE-NEXT: {{^}}                       ^
@tessera.jit
def repr_unicode(X):
    tl.static_print(f'{"→"!r}')


# A failed tl.static_assert shows its f-string message formatted.
# STATIC_ASSERT_MESSAGE: fstrings.py:[[@LINE+5]]:5: error: static_assert failed: BLOCK=256 is above 128 (by 128)
# STATIC_ASSERT_MESSAGE-NEXT: {{^}}    tl.static_assert(BLOCK <= 128, f"BLOCK={BLOCK} is above 128 (by {BLOCK - 128})")
# STATIC_ASSERT_MESSAGE-NEXT: {{^}}    ^
@tessera.jit
def static_assert_message(X, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK <= 128, f"BLOCK={BLOCK} is above 128 (by {BLOCK - 128})")
