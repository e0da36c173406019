# RUN: tessera compile %s --entry k_range --signature "*fp32,i32" | FileCheck %s --check-prefix=RANGE
# RUN: tessera compile %s --entry k_tl_range --signature "*fp32,i32" -D BLOCK=64 | FileCheck %s --check-prefix=TLRANGE
# RUN: tessera compile %s --entry k_static --signature "*i32" | FileCheck %s --check-prefix=STATIC
# RUN: tessera compile %s --entry k_negative --signature "*i32,i32" | FileCheck %s --check-prefix=NEG
# RUN: tessera compile %s --entry k_while --signature "*i32,i32" | FileCheck %s --check-prefix=WHILE
# RUN: tessera compile %s --entry k_settle --signature "*fp32,i32,fp32" | FileCheck %s --check-prefix=SETTLE
# RANGE-LABEL: kernel @k_range(%X: ptr<f32>, %n: i32) {
# RANGE: %{{[0-9]+}} = constant {value = 0} : i32
# RANGE: %{{[0-9]+}} = constant {value = 2} : i32
# RANGE: %{{[0-9]+}} = constant {value = 0} : i32
# RANGE: %{{[0-9]+}} = constant {value = 0.0} : f32
# RANGE: %acc, %cnt = for %{{[0-9]+}}, %n, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : i32, f32 {
# RANGE: ^bb(%i: i32, %acc_1: i32, %cnt_1: f32):
# RANGE: %acc_2 = add %acc_1, %i : i32
# RANGE: %{{[0-9]+}} = constant {value = 1.0} : f32
# RANGE: %cnt_2 = add %cnt_1, %{{[0-9]+}} : f32
# RANGE: yield %acc_2, %cnt_2
# RANGE: %{{[0-9]+}} = cast %acc : f32
# RANGE: %{{[0-9]+}} = add %{{[0-9]+}}, %cnt : f32
# RANGE: store %X, %{{[0-9]+}}
# TLRANGE-LABEL: kernel @k_tl_range(%X: ptr<f32>, %n: i32) {
# TLRANGE: %{{[0-9]+}} = constant {value = 0.0} : f32
# TLRANGE: %acc = splat %{{[0-9]+}} : tile<64xf32>
# TLRANGE: %{{[0-9]+}} = constant {value = 0} : i32
# TLRANGE: %{{[0-9]+}} = constant {value = 1} : i32
# TLRANGE: %acc_1 = for %{{[0-9]+}}, %n, %{{[0-9]+}}, %acc {num_stages = 3, unroll = 2} : tile<64xf32> {
# TLRANGE: ^bb(%j: i32, %acc_2: tile<64xf32>):
# TLRANGE: %{{[0-9]+}} = constant {value = 1.0} : f32
# TLRANGE: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<64xf32>
# TLRANGE: %acc_3 = add %acc_2, %{{[0-9]+}} : tile<64xf32>
# TLRANGE: yield %acc_3
# TLRANGE: %{{[0-9]+}} = constant {value = 0} : i32
# TLRANGE: %{{[0-9]+}} = constant {value = 1} : i32
# TLRANGE: %acc_4 = for %{{[0-9]+}}, %n, %{{[0-9]+}}, %acc_1 : tile<64xf32> {
# TLRANGE: ^bb(%j_1: i32, %acc_5: tile<64xf32>):
# TLRANGE: %{{[0-9]+}} = constant {value = 2.0} : f32
# TLRANGE: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<64xf32>
# TLRANGE: %acc_6 = mul %acc_5, %{{[0-9]+}} : tile<64xf32>
# TLRANGE: yield %acc_6
# TLRANGE: %{{[0-9]+}} = arange {end = 64, start = 0} : tile<64xi32>
# TLRANGE: %{{[0-9]+}} = splat %X : tile<64xptr<f32>>
# TLRANGE: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<64xptr<f32>>
# TLRANGE: store %{{[0-9]+}}, %acc_4
# STATIC-LABEL: kernel @k_static(%X: ptr<i32>) {
# STATIC: %{{[0-9]+}} = constant {value = 263} : i32
# STATIC: store %X, %{{[0-9]+}}
# NEG-LABEL: kernel @k_negative(%X: ptr<i32>, %n: i32) {
# NEG: %{{[0-9]+}} = constant {value = 0} : i32
# NEG: %{{[0-9]+}} = constant {value = -3} : i32
# NEG: %{{[0-9]+}} = constant {value = 3} : i32
# NEG: %{{[0-9]+}} = sub %n, %{{[0-9]+}} : i32
# NEG: %{{[0-9]+}} = constant {value = 1} : i32
# NEG: %{{[0-9]+}} = sub %{{[0-9]+}}, %{{[0-9]+}} : i32
# NEG: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : i32
# NEG: %{{[0-9]+}} = div %{{[0-9]+}}, %{{[0-9]+}} : i32
# NEG: %{{[0-9]+}} = constant {value = 0} : i32
# NEG: %{{[0-9]+}} = constant {value = 1} : i32
# NEG: %{{[0-9]+}} = constant {value = 0} : i32
# NEG: %s = for %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : i32 {
# NEG: ^bb(%k: i32, %s_1: i32):
# NEG: %{{[0-9]+}} = mul %k, %{{[0-9]+}} : i32
# NEG: %{{[0-9]+}} = add %n, %{{[0-9]+}} : i32
# NEG: %s_2 = add %s_1, %{{[0-9]+}} : i32
# NEG: yield %s_2
# NEG: store %X, %s
# WHILE-LABEL: kernel @k_while(%X: ptr<i32>, %n: i32) {
# WHILE: %[[P0:[0-9]+]] = constant {value = 1} : i32
# WHILE: %[[W0:[0-9]+]] = constant {value = 0} : i32
# WHILE: %[[P:[0-9]+]], %[[W:[0-9]+]] = while %[[P0]], %[[W0]] : i32, i32 {
# WHILE-NEXT: ^bb(%[[PA:[0-9]+]]: i32, %[[WA:[0-9]+]]: i32):
# WHILE-NEXT: %[[C:[0-9]+]] = cmp %[[WA]], %n {pred = "lt"} : i1
# WHILE-NEXT: condition %[[C]], %[[PA]], %[[WA]]
# WHILE: ^bb(%[[PB:[0-9]+]]: i32, %[[WB:[0-9]+]]: i32):
# WHILE: %w = add %[[WB]], %{{[0-9]+}} : i32
# WHILE: %p = mul %[[PB]], %{{[0-9]+}} : i32
# WHILE-NEXT: yield %p, %w
# WHILE: %[[S:[0-9]+]] = add %[[W]], %[[P]] : i32
# WHILE-NEXT: store %X, %[[S]]
# SETTLE-LABEL: kernel @k_settle(%X: ptr<f32>, %n: i32, %f: f32) {
# SETTLE: %{{[0-9]+}} = constant {value = 0} : i32
# SETTLE: %{{[0-9]+}} = constant {value = 1} : i32
# SETTLE: %{{[0-9]+}} = constant {value = 0} : i32
# SETTLE: %{{[0-9]+}} = constant {value = 0} : i32
# SETTLE: %{{[0-9]+}} = cast %{{[0-9]+}} : f32
# SETTLE: %v = for %{{[0-9]+}}, %n, %{{[0-9]+}}, %{{[0-9]+}} : f32 {
# SETTLE: ^bb(%i: i32, %v_1: f32):
# SETTLE: %v_2 = add %v_1, %f : f32
# SETTLE: yield %v_2
# SETTLE: store %X, %v
# Loops: range and tl.range (num_stages, loop_unroll_factor) become `for` with
# loop-carried values; tl.static_range unrolls (with break/continue) at compile
# time; a negative constexpr step counts trips upward; while loops; a value
# that starts as a Python number settles to the type the body gives it.
import tessera
import tessera.language as tl


@tessera.jit
def k_range(X, n):
    acc = 0
    cnt = 0.0
    for i in range(0, n, 2):
        acc += i
        cnt = cnt + 1.0
    tl.store(X, acc + cnt)


@tessera.jit
def k_tl_range(X, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for j in tl.range(0, n, num_stages=3, loop_unroll_factor=2):
        acc += 1.0
    for j in tl.range(n):
        acc = acc * 2.0
    tl.store(X + tl.arange(0, BLOCK), acc)


@tessera.jit
def k_static(X):
    s = 0
    for k in tl.static_range(6):
        if k == 1:
            continue
        if k == 4:
            break
        s += k
    t = 0
    for k in tl.static_range(2, 10, 3):
        t = t * 10 + k
    tl.store(X, s + t)


@tessera.jit
def k_negative(X, n):
    s = 0
    for k in range(n, 0, -3):
        s += k
    tl.store(X, s)


@tessera.jit
def k_while(X, n):
    w = 0
    p = 1
    while w < n:
        w += 1
        p = p * 2
    tl.store(X, w + p)


@tessera.jit
def k_settle(X, n, f):
    v = 0
    for i in range(n):
        v = v + f
    tl.store(X, v)
