# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-try.py:[[@LINE+6]]:5: error: 'try' statements are not supported in kernels
# CHECK-NEXT: {{^}}    try:
# CHECK-NEXT: {{^}}    ^
import tessera.language as tl

def k(X):
    try:
        pass
    except:
        pass
