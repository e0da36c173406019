# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-continue-outside-loop.py:[[@LINE+6]]:5: error: 'continue' outside loop
# CHECK-NEXT: {{^}}    continue
# CHECK-NEXT: {{^}}    ^
import tessera.language as tl

def k(X):
    continue
