# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-unterminated-triple.py:[[@LINE+6]]:9: error: unterminated triple-quoted string literal
# CHECK-NEXT: {{^}}    x = '''abc
# CHECK-NEXT: {{^}}        ^
import tessera.language as tl

def k(X):
    x = '''abc
