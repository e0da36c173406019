# RUN: tessera compile %s --entry k --signature "Point(x=*fp32:16, y=(i32, constexpr)), i32" -D p.1.1=3 -D "Pair=namedtuple_class:Pair(a, b=2)" -D "T=__namedtuple__('Size', ('rows', 'cols'), (4, 9))" --pipeline inline | FileCheck %s
# Namedtuples (Triton's): a namedtuple argument spells its class and fields
# in the signature, one kernel parameter per runtime leaf as for a tuple; the
# kernel reads elements by field or index; a namedtuple class (from the
# kernel's globals in Python, a constexpr here) makes one, its defaults
# filling the last fields; a compile-time namedtuple is spelled
# __namedtuple__(name, fields, values). Errors: errors/namedtuples.py.
import tessera
import tessera.language as tl


@tessera.jit
def total(q):
    return q.a + q.b


@tessera.jit
def k(p, n, Pair: tl.constexpr, T: tl.constexpr):
    # CHECK-LABEL: kernel @k(%p_0: ptr<f32> {divisibility = 16}, %p_1_0: i32, %n: i32)
    q = Pair(p.y[0])
    # CHECK: add %p_1_0
    # CHECK: store %p_0
    tl.store(p.x, (total(q) + p.y[1] + n).to(tl.float32))
    # CHECK: constant {value = 5}
    # CHECK: store
    tl.store(p[0] + 1, Pair(b=3, a=2).b + p.y[1] - 1)
    # a namedtuple given as a compile-time value (how Python passes one)
    # CHECK: constant {value = 36}
    # CHECK: store
    tl.store(p[0] + 2, T.rows * T.cols)
