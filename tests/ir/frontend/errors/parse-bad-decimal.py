# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-bad-decimal.py:[[@LINE+6]]:9: error: invalid decimal literal
# CHECK-NEXT: {{^}}    x = 1_
# CHECK-NEXT: {{^}}        ^
import tessera.language as tl

def k(X):
    x = 1_
