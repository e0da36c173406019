# RUN: not tessera compile %s --entry store_const --signature "*fp32,i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=STORE_CONST
# RUN: not tessera compile %s --entry atomic_const --signature "*fp32,i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ATOMIC_CONST
# RUN: not tessera compile %s --entry const_int --signature "*fp32,i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=CONST_INT
# RUN: not tessera compile %s --entry ternary_const --signature "*fp32,*fp32,i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=TERNARY_CONST
# RUN: not tessera compile %s --entry return_const --signature "*fp32,*fp32,i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=RETURN_CONST
# RUN: not tessera compile %s --entry if_const --signature "*fp32,*fp32,i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=IF_CONST
# Pointer parameters annotated tl.const: nothing may be stored through them, and a
# value that is a const pointer on one path and a plain one on another is refused
# in Triton's words.
import tessera
import tessera.language as tl


@tessera.jit
def store_const(p: tl.const, n):
    tl.store(p + tl.arange(0, 4)[:, None], 1.0)


@tessera.jit
def atomic_const(p: tl.const, n):
    tl.atomic_add(p, 1.0)


@tessera.jit
def const_int(p, n: tl.const):
    pass


@tessera.jit
def ternary_const(p: tl.const, q, n):
    r = p if n > 0 else q


@tessera.jit
def pick(a, b, c):
    if c > 0:
        return a
    return b


@tessera.jit
def return_const(p: tl.const, q, n):
    r = pick(p, q, n)


@tessera.jit
def if_const(p: tl.const, q, n):
    if n > 0:
        r = p
    else:
        r = q
    tl.store(r, 1.0)

# STORE_CONST: const.py:16:5: error: Cannot store to a constant pointer (a tl.const parameter)
# STORE_CONST-NEXT: {{^}}    tl.store(p + tl.arange(0, 4)[:, None], 1.0)
# STORE_CONST-NEXT: {{^}}    ^
# ATOMIC_CONST: const.py:21:5: error: Cannot store to a constant pointer (a tl.const parameter): atomic_add() writes
# ATOMIC_CONST-NEXT: {{^}}    tl.atomic_add(p, 1.0)
# ATOMIC_CONST-NEXT: {{^}}    ^
# CONST_INT: const.py:25:18: error: tl.const applies to pointer parameters; 'n' is int32
# CONST_INT-NEXT: {{^}}def const_int(p, n: tl.const):
# CONST_INT-NEXT: {{^}}                 ^
# TERNARY_CONST: const.py:31:9: error: Ternary expression with dynamic condition has inconsistent type: const pointer<fp32> and pointer<fp32>
# TERNARY_CONST-NEXT: {{^}}    r = p if n > 0 else q
# TERNARY_CONST-NEXT: {{^}}        ^
# RETURN_CONST: const.py:36:5: error: Inconsistent return types: const pointer<fp32> and pointer<fp32>
# RETURN_CONST-NEXT: {{^}}    if c > 0:
# RETURN_CONST-NEXT: {{^}}    ^
# IF_CONST: const.py:48:5: error: Mismatched type for r between then block (const pointer<fp32>) and else block (pointer<fp32>)
# IF_CONST-NEXT: {{^}}    if n > 0:
# IF_CONST-NEXT: {{^}}    ^
