# RUN: tessera compile %s --entry k --signature "*i32, (i32, i32)" | FileCheck %s
# `f(*t)` spreads the tuple t into positional arguments, as Python does.
import tessera
import tessera.language as tl


@tessera.jit
def add3(a, b, c):
    return a + b + c


@tessera.jit
def k(Y, pair):
    # CHECK-LABEL: kernel @k(
    # CHECK: call %pair_0, %pair_1 {callee = "add3"}
    # CHECK: store %Y
    tl.store(Y, add3(*pair, 7))
    # CHECK: constant {value = 6}
    # CHECK: store
    tl.store(Y + 1, add3(1, *(2, 3)))
