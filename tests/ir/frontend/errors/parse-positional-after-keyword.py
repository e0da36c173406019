# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-positional-after-keyword.py:[[@LINE+6]]:12: error: positional argument follows keyword argument
# CHECK-NEXT: {{^}}    f(a=1, 2)
# CHECK-NEXT: {{^}}           ^
import tessera.language as tl

def k(X):
    f(a=1, 2)
