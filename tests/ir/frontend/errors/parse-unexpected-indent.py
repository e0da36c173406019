# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-unexpected-indent.py:[[@LINE+7]]:9: error: unexpected indent
# CHECK-NEXT: {{^}}        y = 2
# CHECK-NEXT: {{^}}        ^
import tessera.language as tl

def k(X):
    x = 1
        y = 2
