# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-module-level.py:[[@LINE+7]]:1: error: only imports, assignments and function definitions are allowed at module level
# CHECK-NEXT: {{^}}print(1)
# CHECK-NEXT: {{^}}^
import tessera.language as tl

def k(X):
    pass
print(1)
