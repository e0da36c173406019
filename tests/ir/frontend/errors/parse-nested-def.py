# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-nested-def.py:[[@LINE+6]]:5: error: nested function definitions are not supported in kernels
# CHECK-NEXT: {{^}}    def inner():
# CHECK-NEXT: {{^}}    ^
import tessera.language as tl

def k(X):
    def inner():
        pass
