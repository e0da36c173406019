# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-bad-escape.py:[[@LINE+6]]:10: error: invalid \x escape in string literal
# CHECK-NEXT: {{^}}    x = '\x4'
# CHECK-NEXT: {{^}}         ^
import tessera.language as tl

def k(X):
    x = '\x4'
