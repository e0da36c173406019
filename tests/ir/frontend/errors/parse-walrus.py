# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-walrus.py:[[@LINE+6]]:11: error: assignment expressions (':=') are not supported in kernels
# CHECK-NEXT: {{^}}    if (y := 1):
# CHECK-NEXT: {{^}}          ^
import tessera.language as tl

def k(X):
    if (y := 1):
        pass
