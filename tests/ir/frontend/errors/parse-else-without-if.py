# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-else-without-if.py:[[@LINE+6]]:5: error: 'else' without a matching 'if'
# CHECK-NEXT: {{^}}    else:
# CHECK-NEXT: {{^}}    ^
import tessera.language as tl

def k(X):
    else:
        pass
