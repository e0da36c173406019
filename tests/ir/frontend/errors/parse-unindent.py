# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-unindent.py:[[@LINE+7]]:5: error: unindent does not match any outer indentation level
# CHECK-NEXT: {{^}}    y = 2
# CHECK-NEXT: {{^}}    ^
import tessera.language as tl

def k(X):
        x = 1
    y = 2
