# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-comprehension.py:[[@LINE+6]]:15: error: dict and set comprehensions are not supported in kernels
# CHECK-NEXT: {{^}}    x = {i: i for i in range(3)}
# CHECK-NEXT: {{^}}              ^
import tessera.language as tl

def k(X):
    x = {i: i for i in range(3)}
