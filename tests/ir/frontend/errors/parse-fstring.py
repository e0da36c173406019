# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-fstring.py:[[@LINE+6]]:9: error: f-strings are not supported
# CHECK-NEXT: {{^}}    x = f'a{X}'
# CHECK-NEXT: {{^}}        ^
import tessera.language as tl

def k(X):
    x = f'a{X}'
