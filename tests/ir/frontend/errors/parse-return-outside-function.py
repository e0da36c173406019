# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-return-outside-function.py:[[@LINE+5]]:1: error: 'return' outside function
# CHECK-NEXT: {{^}}return 1
# CHECK-NEXT: {{^}}^
import tessera.language as tl

return 1

def k(X):
    pass
