# RUN: tessera compile %s --entry k --signature "*i32, (i32, i32, i32)" --pipeline inline | FileCheck %s
# List comprehensions and generator expressions unroll while compiling, over
# tuples and ranges with compile-time bounds, filtered by compile-time
# conditions; their targets stay their own. Errors: errors/comprehensions.py.
import tessera
import tessera.language as tl


@tessera.jit
def k(Y, values):
    i = 100
    # CHECK-LABEL: kernel @k(
    # CHECK: %[[A:.*]] = add %values_0
    # CHECK: %[[B:.*]] = add %values_1
    # CHECK: %[[C:.*]] = add %values_2
    bumped = tl.tuple([v + 1 for v in values])
    # CHECK: add %[[A]], %[[C]]
    tl.store(Y, bumped[0] + bumped[2])
    # pairs with a != b: 0*1, 0*2, 1*2, 2*1 (4 of them, summing to 4); enumerate: 0+1+2; 4 + 3 + 100 - 4
    pairs = [a * b for a in range(3) for b in (1, 2) if a != b]
    firsts = tuple(n for n, _ in enumerate(values))
    # CHECK: constant {value = 103}
    tl.store(Y + 1, sum_of(pairs) + sum_of(firsts) + i - len(pairs))


@tessera.jit
def sum_of(t):
    total = 0
    for j in tl.static_range(len(t)):
        total += t[j]
    return total
