# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-class.py:[[@LINE+5]]:1: error: 'class' statements are not supported in kernels
# CHECK-NEXT: {{^}}class A:
# CHECK-NEXT: {{^}}^
import tessera.language as tl

class A:
    pass
def k(X):
    pass
