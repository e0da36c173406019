# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-duplicate-param.py:[[@LINE+5]]:10: error: duplicate parameter 'X'
# CHECK-NEXT: {{^}}def k(X, X):
# CHECK-NEXT: {{^}}         ^
import tessera.language as tl

def k(X, X):
    pass
