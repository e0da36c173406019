# RUN: tessera compile %s --entry k_args --signature "i1,i8,i16,i32,i64,u8,u16,u32,u64,fp8e4nv,fp8e5,fp16,bf16,fp32,fp64,*fp32,*i8:16" | FileCheck %s --check-prefix=ARGS
# RUN: tessera compile %s --entry k_cast --signature "*fp32" | FileCheck %s --check-prefix=CAST
# ARGS-LABEL: kernel @k_args(%b: i1, %i8: i8, %i16: i16, %i32: i32, %i64: i64, %u8: u8, %u16: u16, %u32: u32, %u64: u64, %e4: f8e4m3, %e5: f8e5m2, %h: f16, %bf: bf16, %f: f32, %d: f64, %P: ptr<f32>, %Q: ptr<i8> {divisibility = 16}) {
# ARGS: store %P, %f
# CAST-LABEL: kernel @k_cast(%X: ptr<f32>) {
# CAST: %{{[0-9]+}} = arange {end = 4, start = 0} : tile<4xi32>
# CAST: %{{[0-9]+}} = splat %X : tile<4xptr<f32>>
# CAST: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<4xptr<f32>>
# CAST: %x = load %{{[0-9]+}} : tile<4xf32>
# CAST: %{{[0-9]+}} = constant {value = 0.0} : f32
# CAST: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<4xf32>
# CAST: %a = cmp %x, %{{[0-9]+}} {pred = "ne"} : tile<4xi1>
# CAST: %a_1 = cast %x : tile<4xi8>
# CAST: %a_2 = cast %x : tile<4xi16>
# CAST: %a_3 = cast %x : tile<4xi32>
# CAST: %a_4 = cast %x : tile<4xi64>
# CAST: %a_5 = cast %x : tile<4xu8>
# CAST: %a_6 = cast %x : tile<4xu16>
# CAST: %a_7 = cast %x : tile<4xu32>
# CAST: %a_8 = cast %x : tile<4xu64>
# CAST: %a_9 = cast %x : tile<4xf8e4m3>
# CAST: %a_10 = cast %x : tile<4xf8e5m2>
# CAST: %a_11 = cast %x : tile<4xf16>
# CAST: %a_12 = cast %x : tile<4xbf16>
# CAST: %a_13 = cast %x : tile<4xf64>
# CAST: %a_14 = cast %x : tile<4xi64>
# CAST: %b = bitcast %x : tile<4xu32>
# CAST: %{{[0-9]+}} = arange {end = 4, start = 0} : tile<4xi32>
# CAST: %{{[0-9]+}} = splat %X : tile<4xptr<f32>>
# CAST: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<4xptr<f32>>
# CAST: %{{[0-9]+}} = cast %b : tile<4xf32>
# CAST: %{{[0-9]+}} = cast %a_14 : tile<4xf32>
# CAST: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<4xf32>
# CAST: store %{{[0-9]+}}, %{{[0-9]+}}
# Every dtype: as a kernel argument (Triton's signature spellings) and as a
# tl.* dtype object in a cast.
import tessera
import tessera.language as tl


@tessera.jit
def k_args(b, i8, i16, i32, i64, u8, u16, u32, u64, e4, e5, h, bf, f, d, P, Q):
    tl.store(P, f)


@tessera.jit
def k_cast(X):
    x = tl.load(X + tl.arange(0, 4))
    a = x.to(tl.int1)
    a = x.to(tl.int8)
    a = x.to(tl.int16)
    a = x.to(tl.int32)
    a = x.to(tl.int64)
    a = x.to(tl.uint8)
    a = x.to(tl.uint16)
    a = x.to(tl.uint32)
    a = x.to(tl.uint64)
    a = x.to(tl.float8e4nv)
    a = x.to(tl.float8e5)
    a = x.to(tl.float16)
    a = x.to(tl.bfloat16)
    a = x.to(tl.float64)
    a = x.to(tl.float32)
    a = x.to(tl.pointer_type(tl.int64).element_ty)
    b = tl.cast(x, tl.uint32, bitcast=True)
    tl.store(X + tl.arange(0, 4), a + b.to(tl.float32))
