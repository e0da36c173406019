# RUN: not tessera compile %s --entry k --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace
# CHECK: star-arg-not-a-tuple.py:[[@LINE+8]]:15: error: '*' unpacking in a call takes a tuple, not tensor of type ptr<f32>
# CHECK-NEXT: {{^}}    tl.store(*X)
# CHECK-NEXT: {{^}}              ^
# `f(*t)` spreads a tuple; a tensor is not one.
import tessera.language as tl


def k(X):
    tl.store(*X)
