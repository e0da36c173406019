# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-leading-zeros.py:[[@LINE+6]]:9: error: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal
# CHECK-NEXT: {{^}}    x = 007
# CHECK-NEXT: {{^}}        ^
import tessera.language as tl

def k(X):
    x = 007
