# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-escape-range.py:[[@LINE+6]]:10: error: escape names a character beyond U+10FFFF
# CHECK-NEXT: {{^}}    s = '\U00110000'
# CHECK-NEXT: {{^}}         ^
import tessera.language as tl

def k(X):
    s = '\U00110000'
