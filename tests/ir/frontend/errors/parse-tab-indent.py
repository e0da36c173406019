# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# CHECK: parse-tab-indent.py:[[@LINE+6]]:1: error: tab character in indentation; indent with spaces
# CHECK-NEXT: {{^}}	x = 1
# CHECK-NEXT: {{^}}^
import tessera.language as tl

def k(X):
	x = 1
