# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-async-comprehension.py:[[@LINE+6]]:12: error: asynchronous comprehensions are not supported in kernels
# CHECK-NEXT: {{^}}    x = [i async for i in range(3)]
# CHECK-NEXT: {{^}}           ^
import tessera.language as tl

def k(X):
    x = [i async for i in range(3)]
