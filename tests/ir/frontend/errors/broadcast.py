# RUN: not tessera compile %s --entry add_f32 --signature "*fp32,*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ADD_F32
# RUN: not tessera compile %s --entry mixed_2d --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=MIXED_2D
# RUN: not tessera compile %s --entry pointer_offsets --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=POINTER_OFFSETS
# RUN: not tessera compile %s --entry where_cond --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=WHERE_COND
# RUN: not tessera compile %s --entry atomic_three --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ATOMIC_THREE
# RUN: not tessera compile %s --entry store_value --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=STORE_VALUE
# RUN: not tessera compile %s --entry broadcast_to --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=BROADCAST_TO
# RUN: not tessera compile %s --entry broadcast_to_shrink --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=BROADCAST_TO_SHRINK
# Shapes that do not broadcast: the error names the operands by their own
# types, as the kernel wrote them (it once showed tile<4xi1> for f32 tiles).
import tessera
import tessera.language as tl


# ADD_F32: broadcast.py:[[@LINE+7]]:39: error: cannot broadcast shapes tile<4xf32> and tile<8xf32>: dimension 0 is 4 and 8
# ADD_F32-NEXT: {{^}}    tl.store(x_ptr + tl.arange(0, 4), a + c)
# ADD_F32-NEXT: {{^}}                                      ^
@tessera.jit
def add_f32(x_ptr, y_ptr):
    a = tl.load(x_ptr + tl.arange(0, 4))
    c = tl.load(y_ptr + tl.arange(0, 8))
    tl.store(x_ptr + tl.arange(0, 4), a + c)


# Before the casts to their common type (f32 here).
# MIXED_2D: broadcast.py:[[@LINE+5]]:9: error: cannot broadcast shapes tile<4x2xi8> and tile<8xf16>: dimension 1 is 2 and 8
# MIXED_2D-NEXT: {{^}}    y = tl.zeros([4, 2], tl.int8) * tl.zeros([8], tl.float16)
# MIXED_2D-NEXT: {{^}}        ^
@tessera.jit
def mixed_2d(X):
    y = tl.zeros([4, 2], tl.int8) * tl.zeros([8], tl.float16)


# POINTER_OFFSETS: broadcast.py:[[@LINE+5]]:10: error: cannot broadcast shapes tile<4xptr<f32>> and tile<8xi32>: dimension 0 is 4 and 8
# POINTER_OFFSETS-NEXT: {{^}}    p = (X + tl.arange(0, 4)) + tl.arange(0, 8)
# POINTER_OFFSETS-NEXT: {{^}}         ^
@tessera.jit
def pointer_offsets(X):
    p = (X + tl.arange(0, 4)) + tl.arange(0, 8)


# WHERE_COND: broadcast.py:[[@LINE+5]]:9: error: cannot broadcast shapes tile<4xi1> and tile<8xf32>: dimension 0 is 4 and 8
# WHERE_COND-NEXT: {{^}}    y = tl.where(tl.arange(0, 4) > 1, tl.zeros([8], tl.float32), 1.0)
# WHERE_COND-NEXT: {{^}}        ^
@tessera.jit
def where_cond(X):
    y = tl.where(tl.arange(0, 4) > 1, tl.zeros([8], tl.float32), 1.0)


# Of several operands, the two that clash.
# ATOMIC_THREE: broadcast.py:[[@LINE+5]]:5: error: cannot broadcast shapes tile<1x4xf32> and tile<2x8xf32>: dimension 1 is 4 and 8
# ATOMIC_THREE-NEXT: {{^}}    tl.atomic_cas(X + tl.zeros([2, 1], tl.int32), tl.zeros([1, 4], tl.float32), tl.zeros([2, 8], tl.float32))
# ATOMIC_THREE-NEXT: {{^}}    ^
@tessera.jit
def atomic_three(X):
    tl.atomic_cas(X + tl.zeros([2, 1], tl.int32), tl.zeros([1, 4], tl.float32), tl.zeros([2, 8], tl.float32))


# A stored value is named as written, though it is cast to the pointee first.
# STORE_VALUE: broadcast.py:[[@LINE+5]]:5: error: cannot broadcast the value (tile<8xf16>) to the pointers' shape tile<4xptr<f32>>: dimension 0 is 8 and 4
# STORE_VALUE-NEXT: {{^}}    tl.store(X + tl.arange(0, 4), tl.zeros([8], tl.float16))
# STORE_VALUE-NEXT: {{^}}    ^
@tessera.jit
def store_value(X):
    tl.store(X + tl.arange(0, 4), tl.zeros([8], tl.float16))


# BROADCAST_TO: broadcast.py:[[@LINE+5]]:9: error: cannot broadcast tile<4xf16> to tile<8x8xf16>: dimension 1 is 4 and 8
# BROADCAST_TO-NEXT: {{^}}    y = tl.broadcast_to(tl.zeros([4], tl.float16), (8, 8))
# BROADCAST_TO-NEXT: {{^}}        ^
@tessera.jit
def broadcast_to(X):
    y = tl.broadcast_to(tl.zeros([4], tl.float16), (8, 8))


# A dimension cannot shrink to a 1 (this once made invalid IR).
# BROADCAST_TO_SHRINK: broadcast.py:[[@LINE+5]]:9: error: cannot broadcast tile<8xf32> to tile<1xf32>: dimension 0 is 8 and 1
# BROADCAST_TO_SHRINK-NEXT: {{^}}    y = tl.broadcast_to(tl.zeros([8], tl.float32), (1,))
# BROADCAST_TO_SHRINK-NEXT: {{^}}        ^
@tessera.jit
def broadcast_to_shrink(X):
    y = tl.broadcast_to(tl.zeros([8], tl.float32), (1,))
