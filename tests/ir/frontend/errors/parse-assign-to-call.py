# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-assign-to-call.py:[[@LINE+6]]:5: error: cannot assign to function call
# CHECK-NEXT: {{^}}    f() = 1
# CHECK-NEXT: {{^}}    ^
import tessera.language as tl

def k(X):
    f() = 1
