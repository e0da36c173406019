# RUN: not tessera compile %s --entry topk_dim --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=TOPK_DIM
# RUN: not tessera compile %s --entry topk_k --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=TOPK_K
# RUN: not tessera compile %s --entry topk_bool --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=TOPK_BOOL
# RUN: not tessera compile %s --entry dot_out_bf16 --signature "*fp16" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DOT_OUT_BF16
# RUN: not tessera compile %s --entry dot_out_f64 --signature "*fp16" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DOT_OUT_F64
# RUN: not tessera compile %s --entry dot_acc_fixed --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DOT_ACC_FIXED
# RUN: not tessera compile %s --entry dot_acc_out --signature "*fp16" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DOT_ACC_OUT
# RUN: not tessera compile %s --entry dot_acc_int --signature "*i8" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DOT_ACC_INT
# RUN: not tessera compile %s --entry dot_acc_f64 --signature "*fp64" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DOT_ACC_F64
# Where Triton refuses what Tessera once computed differently: the refusal,
# at the call, in words that say what is supported.
import tessera
import tessera.language as tl


# TOPK_DIM: triton-parity.py:[[@LINE+5]]:9: error: tl.topk: only the last dimension is supported (as in Triton)
# TOPK_DIM-NEXT: {{^}}    x = tl.topk(tl.zeros([4, 8], tl.float32), 2, dim=0)
# TOPK_DIM-NEXT: {{^}}        ^
@tessera.jit
def topk_dim(n):
    x = tl.topk(tl.zeros([4, 8], tl.float32), 2, dim=0)


# TOPK_K: triton-parity.py:[[@LINE+5]]:9: error: tl.topk: k must be a power of two from 1 to the dimension's 8, found 3
# TOPK_K-NEXT: {{^}}    x = tl.topk(tl.zeros([8], tl.float32), 3)
# TOPK_K-NEXT: {{^}}        ^
@tessera.jit
def topk_k(n):
    x = tl.topk(tl.zeros([8], tl.float32), 3)


# TOPK_BOOL: triton-parity.py:[[@LINE+5]]:9: error: tl.topk needs numbers, found tile<8xi1>
# TOPK_BOOL-NEXT: {{^}}    x = tl.topk(tl.arange(0, 8) > 3, 2)
# TOPK_BOOL-NEXT: {{^}}        ^
@tessera.jit
def topk_bool(n):
    x = tl.topk(tl.arange(0, 8) > 3, 2)


# DOT_OUT_BF16: triton-parity.py:[[@LINE+6]]:9: error: tl.dot: out_dtype=bfloat16 is unsupported (as in Triton): use out_dtype=tl.float32 or tl.float16 and cast with .to(tl.bfloat16)
# DOT_OUT_BF16-NEXT: {{^}}    x = tl.dot(a, a, out_dtype=tl.bfloat16)
# DOT_OUT_BF16-NEXT: {{^}}        ^
@tessera.jit
def dot_out_bf16(X):
    a = tl.load(X + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    x = tl.dot(a, a, out_dtype=tl.bfloat16)


# DOT_OUT_F64: triton-parity.py:[[@LINE+6]]:9: error: tl.dot of fp16 operands: out_dtype must be float32 or float16, found fp64
# DOT_OUT_F64-NEXT: {{^}}    x = tl.dot(a, a, out_dtype=tl.float64)
# DOT_OUT_F64-NEXT: {{^}}        ^
@tessera.jit
def dot_out_f64(X):
    a = tl.load(X + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    x = tl.dot(a, a, out_dtype=tl.float64)


# DOT_ACC_FIXED: triton-parity.py:[[@LINE+6]]:9: error: tl.dot of fp32 operands gives fp32 whatever out_dtype is; its accumulator must be fp32, found fp16
# DOT_ACC_FIXED-NEXT: {{^}}    x = tl.dot(a, a, tl.zeros([16, 16], tl.float16), out_dtype=tl.float16)
# DOT_ACC_FIXED-NEXT: {{^}}        ^
@tessera.jit
def dot_acc_fixed(X):
    a = tl.load(X + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    x = tl.dot(a, a, tl.zeros([16, 16], tl.float16), out_dtype=tl.float16)


# DOT_ACC_OUT: triton-parity.py:[[@LINE+6]]:9: error: tl.dot of fp16 operands gives fp32 with out_dtype=fp32; its accumulator must be fp32, found fp16
# DOT_ACC_OUT-NEXT: {{^}}    x = tl.dot(a, a, tl.zeros([16, 16], tl.float16))
# DOT_ACC_OUT-NEXT: {{^}}        ^
@tessera.jit
def dot_acc_out(X):
    a = tl.load(X + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    x = tl.dot(a, a, tl.zeros([16, 16], tl.float16))


# DOT_ACC_INT: triton-parity.py:[[@LINE+6]]:9: error: tl.dot: the accumulator's dtype int32 must be out_dtype, which is fp32 (as Triton asserts): pass out_dtype=tl.int32
# DOT_ACC_INT-NEXT: {{^}}    x = tl.dot(a, a, tl.zeros([16, 16], tl.int32))
# DOT_ACC_INT-NEXT: {{^}}        ^
@tessera.jit
def dot_acc_int(X):
    a = tl.load(X + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    x = tl.dot(a, a, tl.zeros([16, 16], tl.int32))


# DOT_ACC_F64: triton-parity.py:[[@LINE+6]]:9: error: tl.dot: the accumulator's dtype fp64 must be out_dtype, which is fp32 (as Triton asserts): pass out_dtype=tl.float64
# DOT_ACC_F64-NEXT: {{^}}    x = tl.dot(a, a, tl.zeros([16, 16], tl.float64))
# DOT_ACC_F64-NEXT: {{^}}        ^
@tessera.jit
def dot_acc_f64(X):
    a = tl.load(X + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    x = tl.dot(a, a, tl.zeros([16, 16], tl.float64))
