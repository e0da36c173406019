# RUN: not tessera compile %s --entry k --signature "*fp32,*fp32,i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=PARAM
# RUN: not tessera compile %s --entry gone --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=GONE
# RUN: not tessera compile %s --entry k --signature "*fp32:8" 2>&1 | FileCheck %s --check-prefix=SPEC
# RUN: not tessera compile %s --entry k --signature "*fp32:1" 2>&1 | FileCheck %s --check-prefix=ONE
# RUN: not tessera compile %s --entry k --signature "i32:16:r32" 2>&1 | FileCheck %s --check-prefix=RANGE
# RUN: not tessera compile %s --entry k --signature "*fp32:16:" 2>&1 | FileCheck %s --check-prefix=EMPTY
# RUN: not tessera compile %s --entry k --signature "tensordesc<fp16[64,64]>:16:r32" 2>&1 | FileCheck %s --check-prefix=DESC
# The CLI reads the parameter names from the first "def NAME(" in the file, so
# the stale comments below make it pass arguments the kernel does not have, and
# ask for a function that is not there.
# Old signature: def k(X, Y, n)
# Removed: def gone(X)
# PARAM: driver-scan.py:[[@LINE+13]]:1: error: kernel 'k' has no parameter named 'Y'
# PARAM-NEXT: {{^}}def k(X):
# PARAM-NEXT: {{^}}^
# GONE: driver-scan.py: error: no function named 'gone' (found: k)
# SPEC: tessera: unknown specialization ':8' in '*fp32:8' (use :16, :1 or :r32)
# ONE: tessera: ':1' applies only to integer arguments, not '*fp32:1'
# RANGE: tessera: ':r32' applies only to pointer arguments, not 'i32:16:r32'
# EMPTY: tessera: unknown specialization ':' in '*fp32:16:' (use :16, :1 or :r32)
# DESC: tessera: unknown specialization ':r32' in 'tensordesc<fp16[64,64]>:16:r32' (use :16 or :e16)
import tessera


@tessera.jit
def k(X):
    pass
