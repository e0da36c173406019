# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-annotate-tuple.py:[[@LINE+6]]:5: error: only a single target (not a tuple) can be annotated
# CHECK-NEXT: {{^}}    a, b: int = 1, 2
# CHECK-NEXT: {{^}}    ^
import tessera.language as tl

def k(X):
    a, b: int = 1, 2
