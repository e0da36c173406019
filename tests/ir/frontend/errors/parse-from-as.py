# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-from-as.py:[[@LINE+5]]:6: error: expected 'import' after module name, found 'as'
# CHECK-NEXT: {{^}}from tessera as t import language
# CHECK-NEXT: {{^}}     ^
import tessera.language as tl

from tessera as t import language

def k(X):
    pass
