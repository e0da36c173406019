# RUN: tessera compile %s --entry k_assign --signature "*fp32:16,*fp32:16,i32" -D BLOCK=128 | FileCheck %s --check-prefix=ASSIGN
# RUN: tessera compile %s --entry k_assign --signature "*fp32:16,*fp32:16,i32" -D BLOCK=32 -D SCALE=5 | FileCheck %s --check-prefix=SMALL
# RUN: tessera compile %s --entry k_early --signature "*fp32,i32" | FileCheck %s --check-prefix=EARLY
# RUN: tessera compile %s --entry k_subscript --signature "*fp32,i32" | FileCheck %s --check-prefix=SUB
# RUN: tessera compile %s --entry k_logic --signature "i32,i32,*i1" | FileCheck %s --check-prefix=LOGIC
# ASSIGN-LABEL: kernel @k_assign(%X: ptr<f32> {divisibility = 16}, %Y: ptr<f32> {divisibility = 16}, %n: i32) {
# ASSIGN: %pid = program_id {axis = 0} : i32
# ASSIGN: %{{[0-9]+}} = constant {value = 1} : i32
# ASSIGN: %a = add %pid, %{{[0-9]+}} : i32
# ASSIGN: %b = sub %n, %a : i32
# ASSIGN: %{{[0-9]+}} = constant {value = 2} : i32
# ASSIGN: %b_1 = mul %b, %{{[0-9]+}} : i32
# ASSIGN: %{{[0-9]+}} = constant {value = 128} : i32
# ASSIGN: %{{[0-9]+}} = mul %pid, %{{[0-9]+}} : i32
# ASSIGN: %{{[0-9]+}} = arange {end = 128, start = 0} : tile<128xi32>
# ASSIGN: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<128xi32>
# ASSIGN: %offs = add %{{[0-9]+}}, %{{[0-9]+}} : tile<128xi32>
# ASSIGN: %{{[0-9]+}} = splat %n : tile<128xi32>
# ASSIGN: %mask = cmp %offs, %{{[0-9]+}} {pred = "lt"} : tile<128xi1>
# ASSIGN: %{{[0-9]+}} = splat %X : tile<128xptr<f32>>
# ASSIGN: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<128xptr<f32>>
# ASSIGN: %{{[0-9]+}} = constant {value = 0.0} : f32
# ASSIGN: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<128xf32>
# ASSIGN: %x = load %{{[0-9]+}}, %mask, %{{[0-9]+}} : tile<128xf32>
# ASSIGN: %{{[0-9]+}} = constant {value = 2.0} : f32
# ASSIGN: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<128xf32>
# ASSIGN: %x_1 = mul %x, %{{[0-9]+}} : tile<128xf32>
# ASSIGN: %{{[0-9]+}} = constant {value = 5} : i32
# ASSIGN: %{{[0-9]+}} = cmp %n, %{{[0-9]+}} {pred = "gt"} : i1
# ASSIGN: %z = if %{{[0-9]+}} : tile<128xf32> {
# ASSIGN: %{{[0-9]+}} = constant {value = 1.0} : f32
# ASSIGN: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<128xf32>
# ASSIGN: %y = add %x_1, %{{[0-9]+}} : tile<128xf32>
# ASSIGN: yield %y
# ASSIGN: %{{[0-9]+}} = cast %b_1 : f32
# ASSIGN: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<128xf32>
# ASSIGN: %y_1 = sub %x_1, %{{[0-9]+}} : tile<128xf32>
# ASSIGN: yield %y_1
# ASSIGN: %{{[0-9]+}} = splat %Y : tile<128xptr<f32>>
# ASSIGN: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<128xptr<f32>>
# ASSIGN: %{{[0-9]+}} = constant {value = 3.0} : f32
# ASSIGN: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<128xf32>
# ASSIGN: %{{[0-9]+}} = mul %z, %{{[0-9]+}} : tile<128xf32>
# ASSIGN: store %{{[0-9]+}}, %{{[0-9]+}}, %mask
# SMALL-LABEL: kernel @k_assign(%X: ptr<f32> {divisibility = 16}, %Y: ptr<f32> {divisibility = 16}, %n: i32) {
# SMALL: %pid = program_id {axis = 0} : i32
# SMALL: %{{[0-9]+}} = constant {value = 1} : i32
# SMALL: %a = add %pid, %{{[0-9]+}} : i32
# SMALL: %b = sub %n, %a : i32
# SMALL: %{{[0-9]+}} = constant {value = 2} : i32
# SMALL: %b_1 = mul %b, %{{[0-9]+}} : i32
# SMALL: %{{[0-9]+}} = constant {value = 32} : i32
# SMALL: %{{[0-9]+}} = mul %pid, %{{[0-9]+}} : i32
# SMALL: %{{[0-9]+}} = arange {end = 32, start = 0} : tile<32xi32>
# SMALL: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<32xi32>
# SMALL: %offs = add %{{[0-9]+}}, %{{[0-9]+}} : tile<32xi32>
# SMALL: %{{[0-9]+}} = splat %n : tile<32xi32>
# SMALL: %mask = cmp %offs, %{{[0-9]+}} {pred = "lt"} : tile<32xi1>
# SMALL: %{{[0-9]+}} = splat %X : tile<32xptr<f32>>
# SMALL: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<32xptr<f32>>
# SMALL: %{{[0-9]+}} = constant {value = 0.0} : f32
# SMALL: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<32xf32>
# SMALL: %x = load %{{[0-9]+}}, %mask, %{{[0-9]+}} : tile<32xf32>
# SMALL: %{{[0-9]+}} = constant {value = 3.0} : f32
# SMALL: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<32xf32>
# SMALL: %x_1 = mul %x, %{{[0-9]+}} : tile<32xf32>
# SMALL: %{{[0-9]+}} = constant {value = 5} : i32
# SMALL: %{{[0-9]+}} = cmp %n, %{{[0-9]+}} {pred = "gt"} : i1
# SMALL: %{{[0-9]+}} = if %{{[0-9]+}} : tile<32xf32> {
# SMALL: %{{[0-9]+}} = constant {value = 1.0} : f32
# SMALL: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<32xf32>
# SMALL: %y = add %x_1, %{{[0-9]+}} : tile<32xf32>
# SMALL: yield %y
# SMALL: %{{[0-9]+}} = cast %b_1 : f32
# SMALL: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<32xf32>
# SMALL: %y_1 = sub %x_1, %{{[0-9]+}} : tile<32xf32>
# SMALL: yield %y_1
# SMALL: %{{[0-9]+}} = splat %Y : tile<32xptr<f32>>
# SMALL: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<32xptr<f32>>
# SMALL: %{{[0-9]+}} = constant {value = 5.0} : f32
# SMALL: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<32xf32>
# SMALL: %{{[0-9]+}} = mul %x_1, %{{[0-9]+}} : tile<32xf32>
# SMALL: store %{{[0-9]+}}, %{{[0-9]+}}, %mask
# EARLY-LABEL: kernel @k_early(%X: ptr<f32>, %n: i32) {
# EARLY: %pid = program_id {axis = 0} : i32
# EARLY: %{{[0-9]+}} = cmp %pid, %n {pred = "ge"} : i1
# EARLY: if %{{[0-9]+}} {
# EARLY: %{{[0-9]+}} = addptr %X, %pid : ptr<f32>
# EARLY: %{{[0-9]+}} = constant {value = 1.0} : f32
# EARLY: store %{{[0-9]+}}, %{{[0-9]+}}
# SUB-LABEL: kernel @k_subscript(%X: ptr<f32>, %n: i32) {
# SUB: %r = arange {end = 16, start = 0} : tile<16xi32>
# SUB: %c = arange {end = 32, start = 0} : tile<32xi32>
# SUB: %{{[0-9]+}} = expand_dims %r {axis = 1} : tile<16x1xi32>
# SUB: %{{[0-9]+}} = constant {value = 32} : i32
# SUB: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x1xi32>
# SUB: %{{[0-9]+}} = mul %{{[0-9]+}}, %{{[0-9]+}} : tile<16x1xi32>
# SUB: %{{[0-9]+}} = splat %X : tile<16x1xptr<f32>>
# SUB: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<16x1xptr<f32>>
# SUB: %{{[0-9]+}} = expand_dims %c {axis = 0} : tile<1x32xi32>
# SUB: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<16x32xptr<f32>>
# SUB: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<16x32xi32>
# SUB: %ptrs = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xptr<f32>>
# SUB: %v = load %ptrs : tile<16x32xf32>
# SUB: %w = expand_dims %v {axis = 0} : tile<1x16x32xf32>
# SUB: %{{[0-9]+}} = reduce %w {axis = 0} : tile<16x32xf32> {
# SUB: ^bb(%{{[0-9]+}}: f32, %{{[0-9]+}}: f32):
# SUB: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f32
# SUB: yield %{{[0-9]+}}
# SUB: store %ptrs, %{{[0-9]+}}
# LOGIC-LABEL: kernel @k_logic(%a: i32, %b: i32, %Out: ptr<i1>) {
# LOGIC: %{{[0-9]+}} = constant {value = 0} : i32
# LOGIC: %{{[0-9]+}} = cmp %{{[0-9]+}}, %a {pred = "lt"} : i1
# LOGIC: %{{[0-9]+}} = cmp %a, %b {pred = "lt"} : i1
# LOGIC: %c = and %{{[0-9]+}}, %{{[0-9]+}} : i1
# LOGIC: %{{[0-9]+}} = constant {value = 1} : i32
# LOGIC: %{{[0-9]+}} = cmp %a, %{{[0-9]+}} {pred = "gt"} : i1
# LOGIC: %{{[0-9]+}} = constant {value = 3} : i32
# LOGIC: %{{[0-9]+}} = cmp %b, %{{[0-9]+}} {pred = "lt"} : i1
# LOGIC: %{{[0-9]+}} = and %{{[0-9]+}}, %{{[0-9]+}} : i1
# LOGIC: %{{[0-9]+}} = cmp %a, %b {pred = "eq"} : i1
# LOGIC: %{{[0-9]+}} = constant {value = 0} : i1
# LOGIC: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "eq"} : i1
# LOGIC: %d = or %{{[0-9]+}}, %{{[0-9]+}} : i1
# LOGIC: %{{[0-9]+}} = cmp %a, %b {pred = "gt"} : i1
# LOGIC: %e = if %{{[0-9]+}} : i32 {
# LOGIC: yield %a
# LOGIC: yield %b
# LOGIC: %{{[0-9]+}} = and %c, %d : i1
# LOGIC: %{{[0-9]+}} = constant {value = 0} : i32
# LOGIC: %{{[0-9]+}} = cmp %e, %{{[0-9]+}} {pred = "ne"} : i1
# LOGIC: %{{[0-9]+}} = and %{{[0-9]+}}, %{{[0-9]+}} : i1
# LOGIC: store %Out, %{{[0-9]+}}
# Statements and expressions: assignment, tuple unpacking, augmented assignment,
# if/elif/else on constexpr and runtime conditions (values merged from both
# branches), the early-return pattern, conditional expressions, comparison
# chains, boolean operators, x[:, None] / x[None, :], and a module-level
# constexpr global given with -D.
import tessera
import tessera.language as tl

SCALE = 3


@tessera.jit
def k_assign(X, Y, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    a, b = pid, n
    a += 1
    b -= a
    b *= 2
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.0)
    if BLOCK > 64:
        x = x * 2
    elif BLOCK > 16:
        x = x * 3
    else:
        x = x * 4
    if n > 5:
        y = x + 1.0
    else:
        y = x - b
    z = y if BLOCK > 64 else x
    tl.store(Y + offs, z * SCALE, mask=mask)


@tessera.jit
def k_early(X, n):
    pid = tl.program_id(0)
    if pid >= n:
        return
    tl.store(X + pid, 1.0)


@tessera.jit
def k_subscript(X, n):
    r = tl.arange(0, 16)
    c = tl.arange(0, 32)
    ptrs = X + r[:, None] * 32 + c[None, :]
    v = tl.load(ptrs)
    w = v[None, :, :]
    tl.store(ptrs, tl.sum(w, 0))


@tessera.jit
def k_logic(a, b, Out):
    c = 0 < a < b
    d = (a > 1) and (b < 3) or not (a == b)
    e = a if a > b else b
    tl.store(Out, c & d & (e != 0))
