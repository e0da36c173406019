# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-starred.py:[[@LINE+6]]:8: error: starred expressions are not supported in kernels
# CHECK-NEXT: {{^}}    a, *b = X
# CHECK-NEXT: {{^}}       ^
import tessera.language as tl

def k(X):
    a, *b = X
