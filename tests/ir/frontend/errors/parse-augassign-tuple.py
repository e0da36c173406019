# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-augassign-tuple.py:[[@LINE+6]]:5: error: 'tuple' is an illegal expression for augmented assignment
# CHECK-NEXT: {{^}}    (a, b) += 1
# CHECK-NEXT: {{^}}    ^
import tessera.language as tl

def k(X):
    (a, b) += 1
