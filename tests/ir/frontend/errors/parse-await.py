# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-await.py:[[@LINE+6]]:10: error: 'await' is not supported in kernels
# CHECK-NEXT: {{^}}    x = [await X]
# CHECK-NEXT: {{^}}         ^
import tessera.language as tl

def k(X):
    x = [await X]
