# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-expected.py:[[@LINE+6]]:14: error: expected ')' after tuple elements, found 'NEWLINE'
# CHECK-NEXT: {{^}}    x = (1, 2
# CHECK-NEXT: {{^}}             ^
import tessera.language as tl

def k(X):
    x = (1, 2
