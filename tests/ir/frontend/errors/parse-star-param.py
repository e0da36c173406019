# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-star-param.py:[[@LINE+5]]:7: error: '*' parameters are not supported in kernels
# CHECK-NEXT: {{^}}def k(*args):
# CHECK-NEXT: {{^}}      ^
import tessera.language as tl

def k(*args):
    pass
