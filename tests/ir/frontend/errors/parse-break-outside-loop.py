# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-break-outside-loop.py:[[@LINE+6]]:5: error: 'break' outside loop
# CHECK-NEXT: {{^}}    break
# CHECK-NEXT: {{^}}    ^
import tessera.language as tl

def k(X):
    break
