# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-kwargs.py:[[@LINE+6]]:7: error: '**kwargs' unpacking in calls is not supported in kernels
# CHECK-NEXT: {{^}}    f(**X)
# CHECK-NEXT: {{^}}      ^
import tessera.language as tl

def k(X):
    f(**X)
