# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-set.py:[[@LINE+6]]:10: error: set displays are not supported in kernels
# CHECK-NEXT: {{^}}    x = {1, 2}
# CHECK-NEXT: {{^}}         ^
import tessera.language as tl

def k(X):
    x = {1, 2}
