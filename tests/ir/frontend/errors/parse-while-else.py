# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-while-else.py:[[@LINE+8]]:5: error: 'else' clauses on loops are not supported in kernels
# CHECK-NEXT: {{^}}    else:
# CHECK-NEXT: {{^}}    ^
import tessera.language as tl

def k(X):
    while X:
        pass
    else:
        pass
