# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-loop-else.py:[[@LINE+8]]:5: error: 'else' clauses on loops are not supported in kernels
# CHECK-NEXT: {{^}}    else:
# CHECK-NEXT: {{^}}    ^
import tessera.language as tl

def k(X):
    for i in range(3):
        pass
    else:
        pass
