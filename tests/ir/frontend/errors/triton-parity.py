# RUN: not tessera compile %s --entry topk_dim --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=TOPK_DIM
# RUN: not tessera compile %s --entry topk_k --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=TOPK_K
# RUN: not tessera compile %s --entry topk_bool --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=TOPK_BOOL
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
