# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-bytes.py:[[@LINE+6]]:9: error: bytes literals are not supported
# CHECK-NEXT: {{^}}    x = b'ab'
# CHECK-NEXT: {{^}}        ^
import tessera.language as tl

def k(X):
    x = b'ab'
