# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-bad-int.py:[[@LINE+6]]:9: error: invalid hexadecimal literal
# CHECK-NEXT: {{^}}    x = 0x
# CHECK-NEXT: {{^}}        ^
import tessera.language as tl

def k(X):
    x = 0x
