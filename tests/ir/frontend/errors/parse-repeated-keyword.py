# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-repeated-keyword.py:[[@LINE+6]]:12: error: keyword argument repeated: 'a'
# CHECK-NEXT: {{^}}    f(a=1, a=2)
# CHECK-NEXT: {{^}}           ^
import tessera.language as tl

def k(X):
    f(a=1, a=2)
