# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-star-after-keyword.py:[[@LINE+6]]:12: error: '*' unpacking after keyword arguments is not supported in kernels
# CHECK-NEXT: {{^}}    f(a=1, *X)
# CHECK-NEXT: {{^}}           ^
import tessera.language as tl

def k(X):
    f(a=1, *X)
