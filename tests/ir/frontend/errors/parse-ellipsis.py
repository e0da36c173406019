# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-ellipsis.py:[[@LINE+6]]:9: error: '...' (Ellipsis) is not supported in kernels
# CHECK-NEXT: {{^}}    x = ...
# CHECK-NEXT: {{^}}        ^
import tessera.language as tl

def k(X):
    x = ...
