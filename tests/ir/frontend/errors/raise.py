# A 'raise' in a branch that a compile-time condition skips compiles (as in
# Triton: FlagGems' topk has one after its dtype chain); one that is reached
# is an error at its line.
# RUN: tessera compile %s --entry k --signature "*fp32" -D WIDTH=32 | FileCheck %s --check-prefix=SKIPPED
# RUN: not tessera compile %s --entry k --signature "*fp32" -D WIDTH=24 2>&1 | FileCheck %s --check-prefix=REACHED --strict-whitespace
# RUN: not tessera compile %s --entry k_dynamic --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=DYNAMIC
# SKIPPED-LABEL: kernel @k(
# SKIPPED: store
# REACHED: raise.py:[[@LINE+13]]:9: error: a 'raise' statement is reached while compiling: kernels cannot raise exceptions (a branch that a compile-time condition skips may hold one)
# REACHED-NEXT: {{^}}        raise ValueError("unsupported width") from None
# REACHED-NEXT: {{^}}        ^
# DYNAMIC: raise.py:[[@LINE+16]]:9: error: a 'raise' statement is reached while compiling
import tessera.language as tl


def k(X, WIDTH: tl.constexpr):
    if WIDTH == 16:
        t = tl.int16
    elif WIDTH == 32:
        t = tl.int32
    else:
        raise ValueError("unsupported width") from None
    tl.store(X, tl.load(X.to(tl.pointer_type(t), bitcast=True)).to(tl.float32))


def k_dynamic(X, n):
    if n > 3:
        raise
    tl.store(X, 1.0)
