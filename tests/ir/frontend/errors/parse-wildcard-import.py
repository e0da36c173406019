# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-wildcard-import.py:[[@LINE+5]]:30: error: wildcard imports ('*') are not supported
# CHECK-NEXT: {{^}}from tessera.language import *
# CHECK-NEXT: {{^}}                             ^
import tessera.language as tl

from tessera.language import *
def k(X):
    pass
