# RUN: not tessera compile %s --entry import_inside --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=IMPORT_INSIDE
# RUN: not tessera compile %s --entry assign_attr --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ASSIGN_ATTR
# RUN: not tessera compile %s --entry assert_bare --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ASSERT_BARE
# RUN: not tessera compile %s --entry if_module --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=IF_MODULE
# RUN: not tessera compile %s --entry static_range_long --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=STATIC_RANGE_LONG
# RUN: not tessera compile %s --entry static_range_step --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=STATIC_RANGE_STEP
# RUN: not tessera compile %s --entry range_float --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=RANGE_FLOAT
# RUN: not tessera compile %s --entry for_tuple_target --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=FOR_TUPLE_TARGET
# RUN: not tessera compile %s --entry range_tile --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=RANGE_TILE
# RUN: not tessera compile %s --entry for_return --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=FOR_RETURN
# RUN: not tessera compile %s --entry while_structure --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=WHILE_STRUCTURE
# RUN: not tessera compile %s --entry while_tuple --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=WHILE_TUPLE
# RUN: not tessera compile %s --entry while_type --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=WHILE_TYPE
# Errors in statements and control flow (frontend/CodeGen.cpp).
import tessera
import tessera.language as tl


# IMPORT_INSIDE: statements.py:[[@LINE+5]]:5: error: imports are allowed only at module level, not inside a kernel
# IMPORT_INSIDE-NEXT: {{^}}    import math
# IMPORT_INSIDE-NEXT: {{^}}    ^
@tessera.jit
def import_inside(n):
    import math


# ASSIGN_ATTR: statements.py:[[@LINE+5]]:5: error: cannot assign to this expression; kernels assign only to names and tuples of names
# ASSIGN_ATTR-NEXT: {{^}}    X.a = 1
# ASSIGN_ATTR-NEXT: {{^}}    ^
@tessera.jit
def assign_attr(X):
    X.a = 1


# ASSERT_BARE: statements.py:[[@LINE+5]]:5: error: assertion failed at compile time
# ASSERT_BARE-NEXT: {{^}}    assert 1 == 2
# ASSERT_BARE-NEXT: {{^}}    ^
@tessera.jit
def assert_bare(n):
    assert 1 == 2


# IF_MODULE: statements.py:[[@LINE+5]]:8: error: the condition of an if must be a compile-time value or a scalar, found module tl
# IF_MODULE-NEXT: {{^}}    if tl:
# IF_MODULE-NEXT: {{^}}       ^
@tessera.jit
def if_module(n):
    if tl:
        pass


# STATIC_RANGE_LONG: statements.py:[[@LINE+5]]:14: error: tl.static_range unrolls at most 4096 iterations
# STATIC_RANGE_LONG-NEXT: {{^}}    for i in tl.static_range(5000):
# STATIC_RANGE_LONG-NEXT: {{^}}             ^
@tessera.jit
def static_range_long(n):
    for i in tl.static_range(5000):
        pass


# STATIC_RANGE_STEP: statements.py:[[@LINE+5]]:14: error: range step must not be zero
# STATIC_RANGE_STEP-NEXT: {{^}}    for i in tl.static_range(0, 4, 0):
# STATIC_RANGE_STEP-NEXT: {{^}}             ^
@tessera.jit
def static_range_step(n):
    for i in tl.static_range(0, 4, 0):
        pass


# RANGE_FLOAT: statements.py:[[@LINE+5]]:14: error: range bounds must be integers, found float 1.5
# RANGE_FLOAT-NEXT: {{^}}    for i in range(1.5):
# RANGE_FLOAT-NEXT: {{^}}             ^
@tessera.jit
def range_float(n):
    for i in range(1.5):
        pass


# FOR_TUPLE_TARGET: statements.py:[[@LINE+5]]:9: error: the target of a runtime for loop must be a single name
# FOR_TUPLE_TARGET-NEXT: {{^}}    for i, j in range(n):
# FOR_TUPLE_TARGET-NEXT: {{^}}        ^
@tessera.jit
def for_tuple_target(n):
    for i, j in range(n):
        pass


# RANGE_TILE: statements.py:[[@LINE+5]]:14: error: range bounds must be scalars, found tile<4xi32>
# RANGE_TILE-NEXT: {{^}}    for i in range(tl.arange(0, 4)):
# RANGE_TILE-NEXT: {{^}}             ^
@tessera.jit
def range_tile(n):
    for i in range(tl.arange(0, 4)):
        pass


# FOR_RETURN: statements.py:[[@LINE+5]]:5: error: break, continue and return are not supported inside a runtime for loop (use tl.static_range, or a while loop with a flag)
# FOR_RETURN-NEXT: {{^}}    for i in range(n):
# FOR_RETURN-NEXT: {{^}}    ^
@tessera.jit
def for_return(n):
    for i in range(n):
        if i > 2:
            return


# WHILE_STRUCTURE: statements.py:[[@LINE+6]]:5: error: while-loop variable 'x' changes structure in the loop body: tensor of type i32 becomes None
# WHILE_STRUCTURE-NEXT: {{^}}    while n < 10:
# WHILE_STRUCTURE-NEXT: {{^}}    ^
@tessera.jit
def while_structure(n):
    x = n
    while n < 10:
        n = n + 1
        x = None


# WHILE_TUPLE: statements.py:[[@LINE+6]]:5: error: while-loop variable 'x' changes structure in the loop body: tuple of 2 becomes tuple of 3
# WHILE_TUPLE-NEXT: {{^}}    while n < 10:
# WHILE_TUPLE-NEXT: {{^}}    ^
@tessera.jit
def while_tuple(n):
    x = (1, n)
    while n < 10:
        n = n + 1
        x = (1, 2, n)


# WHILE_TYPE: statements.py:[[@LINE+6]]:5: error: while-loop variable 'x' changes type in the loop body (from i32 to f32); give it its final type before the loop
# WHILE_TYPE-NEXT: {{^}}    while n < 10:
# WHILE_TYPE-NEXT: {{^}}    ^
@tessera.jit
def while_type(n):
    x = 1
    while n < 10:
        n = n + 1
        x = 1.5 + n
