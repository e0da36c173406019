# RUN: tessera compile %s --entry k_int --signature "i8,i16,i32,i64,u8,u32,i1,*i64" | FileCheck %s --check-prefix=INT
# RUN: tessera compile %s --entry k_float --signature "fp16,bf16,fp32,fp64,i8,i32,*fp64" | FileCheck %s --check-prefix=FLT
# RUN: tessera compile %s --entry k_ptr --signature "*fp16,i32,u32,i64" | FileCheck %s --check-prefix=PTR
# RUN: tessera compile %s --entry k_bcast --signature "*fp32" | FileCheck %s --check-prefix=BC
# INT-LABEL: kernel @k_int(%a8: i8, %a16: i16, %a32: i32, %a64: i64, %u8: u8, %u32: u32, %b1: i1, %Out: ptr<i64>) {
# INT: %{{[0-9]+}} = cast %a8 : i16
# INT: %r0 = add %{{[0-9]+}}, %a16 : i16
# INT: %{{[0-9]+}} = cast %a32 : u32
# INT: %r1 = add %{{[0-9]+}}, %u32 : u32
# INT: %{{[0-9]+}} = cast %u32 : i64
# INT: %r2 = add %a64, %{{[0-9]+}} : i64
# INT: %{{[0-9]+}} = cast %u8 : i32
# INT: %r3 = mul %{{[0-9]+}}, %a32 : i32
# INT: %{{[0-9]+}} = constant {value = 1} : i8
# INT: %r4 = add %a8, %{{[0-9]+}} : i8
# INT: %{{[0-9]+}} = constant {value = 3} : u32
# INT: %r5 = add %u32, %{{[0-9]+}} : u32
# INT: %{{[0-9]+}} = cast %b1 : u8
# INT: %r6 = add %{{[0-9]+}}, %u8 : u8
# INT: %{{[0-9]+}} = cast %b1 : u32
# INT: %r7 = div %{{[0-9]+}}, %u32 : u32
# INT: %{{[0-9]+}} = constant {value = 3} : i32
# INT: %r8 = div %a32, %{{[0-9]+}} : i32
# INT: %{{[0-9]+}} = constant {value = 3} : i32
# INT: %r9 = rem %a32, %{{[0-9]+}} : i32
# INT: %{{[0-9]+}} = cast %a32 : f32
# INT: %{{[0-9]+}} = cast %a32 : f32
# INT: %r10 = div %{{[0-9]+}}, %{{[0-9]+}} {approx = true} : f32
# INT: %{{[0-9]+}} = constant {value = 15} : i8
# INT: %r11 = and %a8, %{{[0-9]+}} : i8
# INT: %{{[0-9]+}} = cast %b1 : i32
# INT: %{{[0-9]+}} = constant {value = 1} : i32
# INT: %r12 = and %{{[0-9]+}}, %{{[0-9]+}} : i32
# INT: %{{[0-9]+}} = constant {value = 1} : u32
# INT: %r13 = shr %u32, %{{[0-9]+}} : u32
# INT: %{{[0-9]+}} = constant {value = 4294967296} : i64
# INT: %r14 = add %a64, %{{[0-9]+}} : i64
# INT: %{{[0-9]+}} = cast %r0 : u32
# INT: %{{[0-9]+}} = add %{{[0-9]+}}, %r1 : u32
# INT: %{{[0-9]+}} = cast %{{[0-9]+}} : i64
# INT: %{{[0-9]+}} = add %{{[0-9]+}}, %r2 : i64
# INT: %{{[0-9]+}} = cast %r3 : i64
# INT: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : i64
# INT: %{{[0-9]+}} = cast %r4 : i64
# INT: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : i64
# INT: %{{[0-9]+}} = cast %r5 : i64
# INT: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : i64
# INT: %{{[0-9]+}} = cast %r6 : i64
# INT: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : i64
# INT: %{{[0-9]+}} = cast %r7 : i64
# INT: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : i64
# INT: %{{[0-9]+}} = cast %r8 : i64
# INT: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : i64
# INT: %{{[0-9]+}} = cast %r9 : i64
# INT: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : i64
# INT: %{{[0-9]+}} = cast %r11 : i64
# INT: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : i64
# INT: %{{[0-9]+}} = cast %r12 : i64
# INT: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : i64
# INT: %{{[0-9]+}} = cast %r13 : i64
# INT: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : i64
# INT: %{{[0-9]+}} = add %{{[0-9]+}}, %r14 : i64
# INT: store %Out, %{{[0-9]+}}
# INT: %{{[0-9]+}} = cast %r10 : i64
# INT: store %Out, %{{[0-9]+}}
# FLT-LABEL: kernel @k_float(%h: f16, %bf: bf16, %f: f32, %d: f64, %a8: i8, %a32: i32, %Out: ptr<f64>) {
# FLT: %{{[0-9]+}} = constant {value = 1.0} : f16
# FLT: %r0 = add %h, %{{[0-9]+}} : f16
# FLT: %{{[0-9]+}} = cast %bf : f16
# FLT: %r1 = add %h, %{{[0-9]+}} : f16
# FLT: %r2 = add %bf, %bf : bf16
# FLT: %{{[0-9]+}} = constant {value = 2.0} : bf16
# FLT: %r3 = mul %bf, %{{[0-9]+}} : bf16
# FLT: %{{[0-9]+}} = cast %h : f32
# FLT: %{{[0-9]+}} = cast %h : f32
# FLT: %r4 = div %{{[0-9]+}}, %{{[0-9]+}} {approx = true} : f32
# FLT: %{{[0-9]+}} = cast %bf : f32
# FLT: %{{[0-9]+}} = cast %bf : f32
# FLT: %r5 = rem %{{[0-9]+}}, %{{[0-9]+}} : f32
# FLT: %{{[0-9]+}} = cast %a32 : f16
# FLT: %r6 = add %h, %{{[0-9]+}} : f16
# FLT: %{{[0-9]+}} = cast %a8 : f32
# FLT: %{{[0-9]+}} = constant {value = 2.5} : f32
# FLT: %r7 = mul %{{[0-9]+}}, %{{[0-9]+}} : f32
# FLT: %{{[0-9]+}} = cast %f : f64
# FLT: %r8 = add %{{[0-9]+}}, %d : f64
# FLT: %{{[0-9]+}} = constant {value = 1e+300} : f16
# FLT: %r9 = add %h, %{{[0-9]+}} : f16
# FLT: %{{[0-9]+}} = add %r0, %r1 : f16
# FLT: %{{[0-9]+}} = cast %r2 : f16
# FLT: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f16
# FLT: %{{[0-9]+}} = cast %r3 : f16
# FLT: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f16
# FLT: %{{[0-9]+}} = cast %{{[0-9]+}} : f32
# FLT: %{{[0-9]+}} = add %{{[0-9]+}}, %r4 : f32
# FLT: %{{[0-9]+}} = add %{{[0-9]+}}, %r5 : f32
# FLT: %{{[0-9]+}} = cast %r6 : f32
# FLT: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f32
# FLT: %{{[0-9]+}} = add %{{[0-9]+}}, %r7 : f32
# FLT: %{{[0-9]+}} = cast %{{[0-9]+}} : f64
# FLT: %{{[0-9]+}} = add %{{[0-9]+}}, %r8 : f64
# FLT: %{{[0-9]+}} = cast %r9 : f64
# FLT: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f64
# FLT: store %Out, %{{[0-9]+}}
# PTR-LABEL: kernel @k_ptr(%P: ptr<f16>, %i: i32, %u: u32, %l: i64) {
# PTR: %p0 = addptr %P, %i : ptr<f16>
# PTR: %p1 = addptr %P, %u : ptr<f16>
# PTR: %p2 = addptr %P, %l : ptr<f16>
# PTR: %{{[0-9]+}} = constant {value = 1} : i32
# PTR: %{{[0-9]+}} = neg %{{[0-9]+}} : i32
# PTR: %p3 = addptr %P, %{{[0-9]+}} : ptr<f16>
# PTR: %{{[0-9]+}} = arange {end = 8, start = 0} : tile<8xi32>
# PTR: %{{[0-9]+}} = splat %P : tile<8xptr<f16>>
# PTR: %tile = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<8xptr<f16>>
# PTR: %{{[0-9]+}} = load %p1 : f16
# PTR: %{{[0-9]+}} = load %p2 : f16
# PTR: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f16
# PTR: %{{[0-9]+}} = load %p3 : f16
# PTR: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f16
# PTR: store %p0, %{{[0-9]+}}
# PTR: %{{[0-9]+}} = constant {value = 1.0} : f32
# PTR: %{{[0-9]+}} = cast %{{[0-9]+}} : f16
# PTR: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<8xf16>
# PTR: store %tile, %{{[0-9]+}}
# BC-LABEL: kernel @k_bcast(%X: ptr<f32>) {
# BC: %{{[0-9]+}} = arange {end = 4, start = 0} : tile<4xi32>
# BC: %a = expand_dims %{{[0-9]+}} {axis = 1} : tile<4x1xi32>
# BC: %{{[0-9]+}} = arange {end = 8, start = 0} : tile<8xi32>
# BC: %b = expand_dims %{{[0-9]+}} {axis = 0} : tile<1x8xi32>
# BC: %{{[0-9]+}} = broadcast %a : tile<4x8xi32>
# BC: %{{[0-9]+}} = broadcast %b : tile<4x8xi32>
# BC: %c = add %{{[0-9]+}}, %{{[0-9]+}} : tile<4x8xi32>
# BC: %{{[0-9]+}} = arange {end = 8, start = 0} : tile<8xi32>
# BC: %{{[0-9]+}} = cast %{{[0-9]+}} : tile<8xf32>
# BC: %{{[0-9]+}} = constant {value = 1.5} : f32
# BC: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<8xf32>
# BC: %{{[0-9]+}} = mul %{{[0-9]+}}, %{{[0-9]+}} : tile<8xf32>
# BC: %{{[0-9]+}} = cast %c : tile<4x8xf32>
# BC: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 0} : tile<1x8xf32>
# BC: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<4x8xf32>
# BC: %d = add %{{[0-9]+}}, %{{[0-9]+}} : tile<4x8xf32>
# BC: %{{[0-9]+}} = splat %X : tile<4x8xptr<f32>>
# BC: %{{[0-9]+}} = addptr %{{[0-9]+}}, %c : tile<4x8xptr<f32>>
# BC: store %{{[0-9]+}}, %d
# Triton's typing rules (semantic.py: integer_promote_impl, computation_type_impl,
# binary_op_type_checking_impl): integer promotion by width then signedness,
# int1 counting as unsigned, Python numbers typed weakly, int / int in fp32,
# // and % on integers, fp16/bf16 promotion, pointer arithmetic, broadcasting.
import tessera
import tessera.language as tl


@tessera.jit
def k_int(a8, a16, a32, a64, u8, u32, b1, Out):
    r0 = a8 + a16       # i16: the wider signed type
    r1 = a32 + u32      # u32: unsigned wins at equal width
    r2 = a64 + u32      # i64: a wider signed type wins
    r3 = u8 * a32       # i32
    r4 = a8 + 1         # i8: the Python int stays weak
    r5 = u32 + 3        # u32
    r6 = b1 + u8        # u8: int1 is unsigned
    r7 = b1 // u32      # u32: same signedness, no error
    r8 = a32 // 3       # signed div (truncating, as Triton)
    r9 = a32 % 3        # signed rem
    r10 = a32 / a32     # int / int is an fp32 division
    r11 = a8 & 0xF      # i8
    r12 = b1 & 1        # i32: a Python int outranks a bool tensor
    r13 = u32 >> 1      # logical shift on u32
    r14 = a64 + 4294967296  # i64 constant
    tl.store(Out, r0 + r1 + r2 + r3 + r4 + r5 + r6 + r7 + r8 + r9 + r11 + r12 + r13 + r14)
    tl.store(Out, r10.to(tl.int64))


@tessera.jit
def k_float(h, bf, f, d, a8, a32, Out):
    r0 = h + 1.0        # f16: weak float
    r1 = h + bf         # f16 (an fp16 operand wins)
    r2 = bf + bf        # bf16
    r3 = bf * 2         # bf16
    r4 = h / h          # f32: fp16 division is done in fp32
    r5 = bf % bf        # f32
    r6 = h + a32        # f16: an integer tensor takes the float type
    r7 = a8 * 2.5       # f32: a Python float outranks an int tensor
    r8 = f + d          # f64
    r9 = h + 1e300      # f16: a Python float never outranks a float tensor
    tl.store(Out, r0 + r1 + r2 + r3 + r4 + r5 + r6 + r7 + r8 + r9)


@tessera.jit
def k_ptr(P, i, u, l):
    p0 = P + i
    p1 = P + u
    p2 = l + P
    p3 = P - 1
    tile = P + tl.arange(0, 8)
    tl.store(p0, tl.load(p1) + tl.load(p2) + tl.load(p3))
    tl.store(tile, 1.0)


@tessera.jit
def k_bcast(X):
    a = tl.arange(0, 4)[:, None]
    b = tl.arange(0, 8)[None, :]
    c = a + b
    d = tl.arange(0, 8) * 1.5 + c
    tl.store(X + c, d)
