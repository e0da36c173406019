# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-default-order.py:[[@LINE+5]]:12: error: parameter without a default follows parameter with a default
# CHECK-NEXT: {{^}}def k(X=1, Y):
# CHECK-NEXT: {{^}}           ^
import tessera.language as tl

def k(X=1, Y):
    pass
