# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-dict-unpack.py:[[@LINE+6]]:10: error: '**' unpacking in dict displays is not supported in kernels
# CHECK-NEXT: {{^}}    x = {**X}
# CHECK-NEXT: {{^}}         ^
import tessera.language as tl

def k(X):
    x = {**X}
