# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-int-too-large.py:[[@LINE+6]]:9: error: integer literal is too large
# CHECK-NEXT: {{^}}    x = 123456789012345678901234567890123456789012345
# CHECK-NEXT: {{^}}        ^
import tessera.language as tl

def k(X):
    x = 123456789012345678901234567890123456789012345
