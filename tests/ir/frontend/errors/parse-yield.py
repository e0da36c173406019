# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-yield.py:[[@LINE+6]]:5: error: 'yield' statements are not supported in kernels
# CHECK-NEXT: {{^}}    yield X
# CHECK-NEXT: {{^}}    ^
import tessera.language as tl

def k(X):
    yield X
