# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-bad-char.py:[[@LINE+6]]:11: error: invalid character '$' (U+0024)
# CHECK-NEXT: {{^}}    x = 1 $ 2
# CHECK-NEXT: {{^}}          ^
import tessera.language as tl

def k(X):
    x = 1 $ 2
