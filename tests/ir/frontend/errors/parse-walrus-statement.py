# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-walrus-statement.py:[[@LINE+6]]:7: error: assignment expressions (':=') are not supported in kernels
# CHECK-NEXT: {{^}}    y := 1
# CHECK-NEXT: {{^}}      ^
import tessera.language as tl

def k(X):
    y := 1
