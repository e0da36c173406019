# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-complex.py:[[@LINE+6]]:9: error: complex (imaginary) literals are not supported
# CHECK-NEXT: {{^}}    x = 3j
# CHECK-NEXT: {{^}}        ^
import tessera.language as tl

def k(X):
    x = 3j
