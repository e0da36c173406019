# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-walrus-call.py:[[@LINE+6]]:9: error: assignment expressions (':=') are not supported in kernels
# CHECK-NEXT: {{^}}    f(y := 1)
# CHECK-NEXT: {{^}}        ^
import tessera.language as tl

def k(X):
    f(y := 1)
