# RUN: not tessera compile %s --entry me_store --signature "*i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ME_STORE
# RUN: not tessera compile %s --entry me_atomic --signature "*i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ME_ATOMIC
# RUN: not tessera compile %s --entry me_not_jit --signature "*i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ME_NOT_JIT
# RUN: not tessera compile %s --entry me_keyword --signature "*i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ME_KEYWORD
# RUN: not tessera compile %s --entry me_pack3 --signature "*i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ME_PACK3
# RUN: not tessera compile %s --entry me_no_tile --signature "*i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ME_NO_TILE
# RUN: not tessera compile %s --entry me_pack_divides --signature "*i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ME_PACK_DIVIDES
# RUN: not tessera compile %s --entry me_outputs --signature "*i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ME_OUTPUTS
# RUN: not tessera compile %s --entry me_none --signature "*i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ME_NONE
# RUN: not tessera compile %s --entry me_break --signature "*i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ME_BREAK
# RUN: not tessera compile %s --entry me_differs --signature "*i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ME_DIFFERS
# tl.map_elementwise: what its function may not do, and its arguments.
import tessera
import tessera.language as tl


@tessera.jit
def stores(x, p):
    tl.store(p, x)
    return x


@tessera.jit
def adds(x, p):
    tl.atomic_add(p, 1)
    return x


@tessera.jit
def ident(x):
    return x


@tessera.jit
def two(x0, x1):
    return x0, x1, x0


@tessera.jit
def none_out(x):
    return None


@tessera.jit
def breaks(x):
    for i in tl.static_range(2):
        if x > 0:
            break
    return x


@tessera.jit
def differs(x):
    if x > 0:
        y = 1.0
    else:
        y = "a"
    return x


@tessera.jit
def me_store(p):
    y = tl.map_elementwise(stores, tl.arange(0, 4), p)


@tessera.jit
def me_atomic(p):
    y = tl.map_elementwise(adds, tl.arange(0, 4), p)


@tessera.jit
def me_not_jit(p):
    y = tl.map_elementwise(3, tl.arange(0, 4))


@tessera.jit
def me_keyword(p):
    y = tl.map_elementwise(ident, tl.arange(0, 4), packs=2)


@tessera.jit
def me_pack3(p):
    y = tl.map_elementwise(ident, tl.arange(0, 4), pack=3)


@tessera.jit
def me_no_tile(p):
    y = tl.map_elementwise(ident)


@tessera.jit
def me_pack_divides(p):
    y = tl.map_elementwise(ident, tl.arange(0, 4), pack=8)


@tessera.jit
def me_outputs(p):
    y = tl.map_elementwise(two, tl.arange(0, 4), pack=2)


@tessera.jit
def me_none(p):
    y = tl.map_elementwise(none_out, tl.arange(0, 4))


@tessera.jit
def me_break(p):
    y = tl.map_elementwise(breaks, tl.arange(0, 4))


@tessera.jit
def me_differs(p):
    y = tl.map_elementwise(differs, tl.arange(0, 4))

# ME_STORE: map_elementwise.py:19:5: error: tl.map_elementwise's function cannot store (it runs on every element)
# ME_STORE-NEXT: {{^}}    tl.store(p, x)
# ME_STORE-NEXT: {{^}}    ^
# ME_ATOMIC: map_elementwise.py:25:5: error: tl.map_elementwise's function cannot use atomic_add() (it runs on every element)
# ME_ATOMIC-NEXT: {{^}}    tl.atomic_add(p, 1)
# ME_ATOMIC-NEXT: {{^}}    ^
# ME_NOT_JIT: map_elementwise.py:73:9: error: map_elementwise needs a @jit function first, found int 3
# ME_NOT_JIT-NEXT: {{^}}    y = tl.map_elementwise(3, tl.arange(0, 4))
# ME_NOT_JIT-NEXT: {{^}}        ^
# ME_KEYWORD: map_elementwise.py:78:9: error: map_elementwise() got an unexpected keyword argument 'packs'
# ME_KEYWORD-NEXT: {{^}}    y = tl.map_elementwise(ident, tl.arange(0, 4), packs=2)
# ME_KEYWORD-NEXT: {{^}}        ^
# ME_PACK3: map_elementwise.py:83:9: error: map_elementwise's pack must be a power of two from 1 to 16, found int 3
# ME_PACK3-NEXT: {{^}}    y = tl.map_elementwise(ident, tl.arange(0, 4), pack=3)
# ME_PACK3-NEXT: {{^}}        ^
# ME_NO_TILE: map_elementwise.py:88:9: error: map_elementwise needs at least one tile
# ME_NO_TILE-NEXT: {{^}}    y = tl.map_elementwise(ident)
# ME_NO_TILE-NEXT: {{^}}        ^
# ME_PACK_DIVIDES: map_elementwise.py:93:9: error: map_elementwise's pack (8) must divide the last dimension of tile<4xi32>
# ME_PACK_DIVIDES-NEXT: {{^}}    y = tl.map_elementwise(ident, tl.arange(0, 4), pack=8)
# ME_PACK_DIVIDES-NEXT: {{^}}        ^
# ME_OUTPUTS: map_elementwise.py:98:9: error: map_elementwise's function returned 3 values, not a multiple of pack 2
# ME_OUTPUTS-NEXT: {{^}}    y = tl.map_elementwise(two, tl.arange(0, 4), pack=2)
# ME_OUTPUTS-NEXT: {{^}}        ^
# ME_NONE: map_elementwise.py:103:9: error: map_elementwise's function must return values, found None
# ME_NONE-NEXT: {{^}}    y = tl.map_elementwise(none_out, tl.arange(0, 4))
# ME_NONE-NEXT: {{^}}        ^
# ME_BREAK: map_elementwise.py:47:9: error: break and continue are not supported in tl.map_elementwise's function
# ME_BREAK-NEXT: {{^}}        if x > 0:
# ME_BREAK-NEXT: {{^}}        ^
# ME_DIFFERS: map_elementwise.py:54:5: error: 'y' is float 1.0 on some elements and str "a" on others; only values can differ between elements
# ME_DIFFERS-NEXT: {{^}}    if x > 0:
# ME_DIFFERS-NEXT: {{^}}    ^
