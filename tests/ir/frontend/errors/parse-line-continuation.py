# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-line-continuation.py:[[@LINE+6]]:13: error: unexpected character after line continuation character
# CHECK-NEXT: {{^}}    x = 1 + \ 2
# CHECK-NEXT: {{^}}            ^
import tessera.language as tl

def k(X):
    x = 1 + \ 2
