# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-hex-too-large.py:[[@LINE+6]]:9: error: integer literal is too large
# CHECK-NEXT: {{^}}    x = 0x1FFFFFFFFFFFFFFFF
# CHECK-NEXT: {{^}}        ^
import tessera.language as tl

def k(X):
    x = 0x1FFFFFFFFFFFFFFFF
