# RUN: tessera compile %s --entry k_mem --signature "*fp32:16,*fp32:16,*i32,i32" -D BLOCK=64 | FileCheck %s --check-prefix=MEM
# RUN: tessera compile %s --entry k_bp --signature "*fp16:16,*fp16,i32,i32,i32,i32:1" | FileCheck %s --check-prefix=BP
# RUN: tessera compile %s --entry k_desc --signature "*fp16:16,i32,i32,i32" | FileCheck %s --check-prefix=DESC
# MEM-LABEL: kernel @k_mem(%X: ptr<f32> {divisibility = 16}, %Y: ptr<f32> {divisibility = 16}, %I: ptr<i32>, %n: i32) {
# MEM: %offs = arange {end = 64, start = 0} : tile<64xi32>
# MEM: %{{[0-9]+}} = splat %n : tile<64xi32>
# MEM: %m = cmp %offs, %{{[0-9]+}} {pred = "lt"} : tile<64xi1>
# MEM: %{{[0-9]+}} = splat %X : tile<64xptr<f32>>
# MEM: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<64xptr<f32>>
# MEM: %{{[0-9]+}} = constant {value = 0.0} : f32
# MEM: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<64xf32>
# MEM: %a = load %{{[0-9]+}}, %m, %{{[0-9]+}} {cache = "cg", evict = "last", volatile = true} : tile<64xf32>
# MEM: %{{[0-9]+}} = splat %Y : tile<64xptr<f32>>
# MEM: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<64xptr<f32>>
# MEM: store %{{[0-9]+}}, %a, %m {cache = "wt", evict = "first"}
# MEM: %{{[0-9]+}} = splat %Y : tile<64xptr<f32>>
# MEM: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<64xptr<f32>>
# MEM: %o1 = atomic_rmw %{{[0-9]+}}, %a, %m {kind = "add", scope = "cta", sem = "acquire"} : tile<64xf32>
# MEM: %{{[0-9]+}} = splat %Y : tile<64xptr<f32>>
# MEM: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<64xptr<f32>>
# MEM: %o2 = atomic_rmw %{{[0-9]+}}, %a {kind = "max", scope = "gpu", sem = "acq_rel"} : tile<64xf32>
# MEM: %{{[0-9]+}} = splat %Y : tile<64xptr<f32>>
# MEM: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<64xptr<f32>>
# MEM: %o3 = atomic_rmw %{{[0-9]+}}, %a {kind = "min", scope = "sys", sem = "release"} : tile<64xf32>
# MEM: %{{[0-9]+}} = splat %I : tile<64xptr<i32>>
# MEM: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<64xptr<i32>>
# MEM: %{{[0-9]+}} = constant {value = 1} : i32
# MEM: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<64xi32>
# MEM: %o4 = atomic_rmw %{{[0-9]+}}, %{{[0-9]+}} {kind = "and", scope = "gpu", sem = "acq_rel"} : tile<64xi32>
# MEM: %{{[0-9]+}} = splat %I : tile<64xptr<i32>>
# MEM: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<64xptr<i32>>
# MEM: %{{[0-9]+}} = constant {value = 1} : i32
# MEM: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<64xi32>
# MEM: %o5 = atomic_rmw %{{[0-9]+}}, %{{[0-9]+}} {kind = "or", scope = "gpu", sem = "relaxed"} : tile<64xi32>
# MEM: %{{[0-9]+}} = splat %I : tile<64xptr<i32>>
# MEM: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<64xptr<i32>>
# MEM: %{{[0-9]+}} = constant {value = 1} : i32
# MEM: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<64xi32>
# MEM: %o6 = atomic_rmw %{{[0-9]+}}, %{{[0-9]+}} {kind = "xor", scope = "gpu", sem = "acq_rel"} : tile<64xi32>
# MEM: %{{[0-9]+}} = splat %I : tile<64xptr<i32>>
# MEM: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<64xptr<i32>>
# MEM: %{{[0-9]+}} = constant {value = 2} : i32
# MEM: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<64xi32>
# MEM: %o7 = atomic_rmw %{{[0-9]+}}, %{{[0-9]+}} {kind = "xchg", scope = "gpu", sem = "acq_rel"} : tile<64xi32>
# MEM: %{{[0-9]+}} = constant {value = 0} : i32
# MEM: %{{[0-9]+}} = constant {value = 1} : i32
# MEM: %o8 = atomic_cas %I, %{{[0-9]+}}, %{{[0-9]+}} {scope = "gpu", sem = "acq_rel"} : i32
# MEM: %np = num_programs {axis = 2} : i32
# MEM: %{{[0-9]+}} = splat %Y : tile<64xptr<f32>>
# MEM: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<64xptr<f32>>
# MEM: %{{[0-9]+}} = add %o1, %o2 : tile<64xf32>
# MEM: %{{[0-9]+}} = add %{{[0-9]+}}, %o3 : tile<64xf32>
# MEM: %{{[0-9]+}} = cast %o4 : tile<64xf32>
# MEM: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<64xf32>
# MEM: %{{[0-9]+}} = cast %o8 : f32
# MEM: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<64xf32>
# MEM: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<64xf32>
# MEM: store %{{[0-9]+}}, %{{[0-9]+}}
# BP-LABEL: kernel @k_bp(%A: ptr<f16> {divisibility = 16}, %B: ptr<f16>, %M: i32, %N: i32, %sm: i32, %sn: i32 {equal_to_one = true}) {
# BP: %{{[0-9]+}} = constant {value = 1} : i32
# BP: %{{[0-9]+}} = cast %M : i64
# BP: %{{[0-9]+}} = cast %N : i64
# BP: %{{[0-9]+}} = cast %sm : i64
# BP: %{{[0-9]+}} = cast %{{[0-9]+}} : i64
# BP: %{{[0-9]+}} = constant {value = 0} : i64
# BP: %{{[0-9]+}} = constant {value = 16} : i64
# BP: %{{[0-9]+}} = splat %A : tile<16x32xptr<f16>>
# BP: %{{[0-9]+}} = arange {end = 16, start = 0} : tile<16xi32>
# BP: %{{[0-9]+}} = cast %{{[0-9]+}} : tile<16xi64>
# BP: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xi64>
# BP: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xi64>
# BP: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 1} : tile<16x1xi64>
# BP: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<16x32xi64>
# BP: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# BP: %{{[0-9]+}} = mul %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xi64>
# BP: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xptr<f16>>
# BP: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# BP: %{{[0-9]+}} = constant {value = 0} : i64
# BP: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# BP: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "ge"} : tile<16x32xi1>
# BP: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "lt"} : tile<16x32xi1>
# BP: %{{[0-9]+}} = and %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xi1>
# BP: %{{[0-9]+}} = arange {end = 32, start = 0} : tile<32xi32>
# BP: %{{[0-9]+}} = cast %{{[0-9]+}} : tile<32xi64>
# BP: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<32xi64>
# BP: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<32xi64>
# BP: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 0} : tile<1x32xi64>
# BP: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<16x32xi64>
# BP: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# BP: %{{[0-9]+}} = mul %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xi64>
# BP: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xptr<f16>>
# BP: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# BP: %{{[0-9]+}} = constant {value = 0} : i64
# BP: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# BP: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "ge"} : tile<16x32xi1>
# BP: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "lt"} : tile<16x32xi1>
# BP: %{{[0-9]+}} = and %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xi1>
# BP: %{{[0-9]+}} = and %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xi1>
# BP: %{{[0-9]+}} = constant {value = nan} : f16
# BP: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xf16>
# BP: %a = load %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xf16>
# BP: %{{[0-9]+}} = constant {value = 16} : i64
# BP: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : i64
# BP: %{{[0-9]+}} = constant {value = 0} : i64
# BP: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : i64
# BP: %{{[0-9]+}} = splat %A : tile<16x32xptr<f16>>
# BP: %{{[0-9]+}} = arange {end = 16, start = 0} : tile<16xi32>
# BP: %{{[0-9]+}} = cast %{{[0-9]+}} : tile<16xi64>
# BP: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xi64>
# BP: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xi64>
# BP: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 1} : tile<16x1xi64>
# BP: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<16x32xi64>
# BP: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# BP: %{{[0-9]+}} = mul %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xi64>
# BP: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xptr<f16>>
# BP: %{{[0-9]+}} = arange {end = 32, start = 0} : tile<32xi32>
# BP: %{{[0-9]+}} = cast %{{[0-9]+}} : tile<32xi64>
# BP: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<32xi64>
# BP: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<32xi64>
# BP: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 0} : tile<1x32xi64>
# BP: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<16x32xi64>
# BP: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# BP: %{{[0-9]+}} = mul %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xi64>
# BP: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xptr<f16>>
# BP: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# BP: %{{[0-9]+}} = constant {value = 0} : i64
# BP: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# BP: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "ge"} : tile<16x32xi1>
# BP: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "lt"} : tile<16x32xi1>
# BP: %{{[0-9]+}} = and %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xi1>
# BP: store %{{[0-9]+}}, %a, %{{[0-9]+}}
# DESC-LABEL: kernel @k_desc(%A: ptr<f16> {divisibility = 16}, %M: i32, %N: i32, %sm: i32) {
# DESC: %{{[0-9]+}} = cast %M : i64
# DESC: %{{[0-9]+}} = cast %N : i64
# DESC: %{{[0-9]+}} = cast %sm : i64
# DESC: %{{[0-9]+}} = constant {value = 1} : i64
# DESC: %{{[0-9]+}} = constant {value = 0} : i64
# DESC: %{{[0-9]+}} = constant {value = 0} : i64
# DESC: %{{[0-9]+}} = splat %A : tile<16x32xptr<f16>>
# DESC: %{{[0-9]+}} = arange {end = 16, start = 0} : tile<16xi32>
# DESC: %{{[0-9]+}} = cast %{{[0-9]+}} : tile<16xi64>
# DESC: %{{[0-9]+}} = constant {value = 0} : i64
# DESC: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xi64>
# DESC: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xi64>
# DESC: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 1} : tile<16x1xi64>
# DESC: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = mul %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xptr<f16>>
# DESC: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = constant {value = 0} : i64
# DESC: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "ge"} : tile<16x32xi1>
# DESC: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "lt"} : tile<16x32xi1>
# DESC: %{{[0-9]+}} = and %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xi1>
# DESC: %{{[0-9]+}} = arange {end = 32, start = 0} : tile<32xi32>
# DESC: %{{[0-9]+}} = cast %{{[0-9]+}} : tile<32xi64>
# DESC: %{{[0-9]+}} = constant {value = 32} : i64
# DESC: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<32xi64>
# DESC: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<32xi64>
# DESC: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 0} : tile<1x32xi64>
# DESC: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = mul %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xptr<f16>>
# DESC: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = constant {value = 0} : i64
# DESC: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "ge"} : tile<16x32xi1>
# DESC: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "lt"} : tile<16x32xi1>
# DESC: %{{[0-9]+}} = and %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xi1>
# DESC: %{{[0-9]+}} = and %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xi1>
# DESC: %{{[0-9]+}} = constant {value = 0.0} : f16
# DESC: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xf16>
# The access keeps the descriptor's base, extents, leading stride and the
# block's coordinates: a target may copy the block with a tensor map.
# DESC: %a = desc_load %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %A, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xf16>
# DESC: %{{[0-9]+}} = constant {value = 1.0} : f16
# DESC: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xf16>
# DESC: %{{[0-9]+}} = add %a, %{{[0-9]+}} : tile<16x32xf16>
# DESC: %{{[0-9]+}} = splat %A : tile<16x32xptr<f16>>
# DESC: %{{[0-9]+}} = arange {end = 16, start = 0} : tile<16xi32>
# DESC: %{{[0-9]+}} = cast %{{[0-9]+}} : tile<16xi64>
# DESC: %{{[0-9]+}} = constant {value = 16} : i64
# DESC: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xi64>
# DESC: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xi64>
# DESC: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 1} : tile<16x1xi64>
# DESC: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = mul %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xptr<f16>>
# DESC: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = constant {value = 0} : i64
# DESC: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "ge"} : tile<16x32xi1>
# DESC: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "lt"} : tile<16x32xi1>
# DESC: %{{[0-9]+}} = and %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xi1>
# DESC: %{{[0-9]+}} = arange {end = 32, start = 0} : tile<32xi32>
# DESC: %{{[0-9]+}} = cast %{{[0-9]+}} : tile<32xi64>
# DESC: %{{[0-9]+}} = constant {value = 0} : i64
# DESC: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<32xi64>
# DESC: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<32xi64>
# DESC: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 0} : tile<1x32xi64>
# DESC: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = mul %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xptr<f16>>
# DESC: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = constant {value = 0} : i64
# DESC: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x32xi64>
# DESC: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "ge"} : tile<16x32xi1>
# DESC: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "lt"} : tile<16x32xi1>
# DESC: %{{[0-9]+}} = and %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xi1>
# DESC: %{{[0-9]+}} = and %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xi1>
# DESC: desc_store %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %A, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}
# Memory builtins: load/store with mask, other, cache_modifier, eviction_policy
# and volatile; every atomic with sem and scope; make_block_ptr/advance with
# boundary_check and padding_option; make_tensor_descriptor with desc.load/store.
import tessera
import tessera.language as tl

@tessera.jit
def k_mem(X, Y, I, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(X + offs, mask=m, other=0.0, cache_modifier=".cg", eviction_policy="evict_last", volatile=True)
    tl.store(Y + offs, a, mask=m, cache_modifier=".wt", eviction_policy="evict_first")
    o1 = tl.atomic_add(Y + offs, a, mask=m, sem="acquire", scope="cta")
    o2 = tl.atomic_max(Y + offs, a)
    o3 = tl.atomic_min(Y + offs, a, sem="release", scope="sys")
    o4 = tl.atomic_and(I + offs, 1)
    o5 = tl.atomic_or(I + offs, 1, sem="relaxed")
    o6 = tl.atomic_xor(I + offs, 1, scope="gpu")
    o7 = tl.atomic_xchg(I + offs, 2)
    o8 = tl.atomic_cas(I, 0, 1, sem="acq_rel")
    np = tl.num_programs(2)
    tl.store(Y + offs, o1 + o2 + o3 + o4.to(tl.float32) + o8)

@tessera.jit
def k_bp(A, B, M, N, sm, sn):
    bp = tl.make_block_ptr(base=A, shape=(M, N), strides=(sm, sn), offsets=(0, 16), block_shape=(16, 32), order=(1, 0))
    a = tl.load(bp, boundary_check=(0, 1), padding_option="nan")
    bp = tl.advance(bp, (16, 0))
    tl.store(bp, a, boundary_check=(1,))

@tessera.jit
def k_desc(A, M, N, sm):
    d = tl.make_tensor_descriptor(A, shape=[M, N], strides=[sm, 1], block_shape=[16, 32])
    a = d.load([0, 32])
    d.store([16, 0], a + 1)

