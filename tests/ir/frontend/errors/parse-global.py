# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-global.py:[[@LINE+6]]:5: error: 'global' statements are not supported in kernels
# CHECK-NEXT: {{^}}    global Y
# CHECK-NEXT: {{^}}    ^
import tessera.language as tl

def k(X):
    global Y
