# RUN: tessera compile %s --entry mm --signature "tensordesc<bf16[128,64]>:16,tensordesc<bf16[64,256]>:16,*fp32:16,i32,i32,i32" -D BM=128 -D BN=256 -D BK=64 --target nvptx --num-warps 8 --emit asm | FileCheck %s
# RUN: tessera compile %s --entry mm --signature "tensordesc<fp16[64,32]>:16,tensordesc<fp16[32,64]>:16,*fp32:16,i32,i32,i32" -D BM=64 -D BN=64 -D BK=32 --target nvptx --emit asm | FileCheck %s --check-prefix=SWIZZLE64
# RUN: tessera compile %s --entry mm --signature "tensordesc<bf16[128,64]>:16,tensordesc<bf16[64,256]>:16,*fp32:16,i32,i32,i32" -D BM=128 -D BN=256 -D BK=64 --target nvptx --num-warps 8 --dump-ir-after-each 2>&1 >/dev/null | FileCheck %s --check-prefix=IR
# RUN: tessera compile %s --entry mm --signature "tensordesc<bf16[128,64]>,tensordesc<bf16[64,256]>,*fp32:16,i32,i32,i32" -D BM=128 -D BN=256 -D BK=64 --target nvptx --num-warps 8 --emit asm | FileCheck %s --check-prefix=UNALIGNED
# RUN: tessera compile %s --entry mm --signature "tensordesc<bf16[128,64]>:16,tensordesc<bf16[64,256]>:16,*fp32:16,i32,i32,i32" -D BM=128 -D BN=256 -D BK=64 --target nvptx --arch sm_80 --emit asm | FileCheck %s --check-prefix=SM80
# RUN: tessera compile %s --entry mm --signature "tensordesc<bf16[128,64]>:16,tensordesc<bf16[64,256]>:16,*fp32:16,i32,i32,i32" -D BM=128 -D BN=256 -D BK=64 --target cpu --dump-ir-after-each 2>&1 >/dev/null | FileCheck %s --check-prefix=CPU
# RUN: tessera compile %s --entry mm_in_helper --signature "tensordesc<fp16[128,64]>:16,tensordesc<fp16[64,128]>:16,*fp32:16,i32,i32,i32" -D BM=128 -D BN=128 -D BK=64 --target nvptx --emit asm | FileCheck %s --check-prefix=HELPER
# RUN: tessera compile %s --entry attn --signature "tensordesc<fp16[128,128]>:16,tensordesc<fp16[64,128]>:16,tensordesc<fp16[64,128]>:16,*fp32:16,i32" -D BM=128 -D BN=64 -D D=128 --target nvptx --dump-ir-after-each 2>&1 >/dev/null | FileCheck %s --check-prefix=ATTN
# RUN: tessera compile %s --entry attn --signature "tensordesc<fp16[128,128]>:16,tensordesc<fp16[64,128]>:16,tensordesc<fp16[64,128]>:16,*fp32:16,i32" -D BM=128 -D BN=64 -D D=128 --target nvptx --emit asm | FileCheck %s --check-prefix=ATTNASM
# RUN: tessera compile %s --entry attn_two_loops --signature "tensordesc<fp16[128,128]>:16,tensordesc<fp16[64,128]>:16,tensordesc<fp16[64,128]>:16,*fp32:16,i32" -D BM=128 -D BN=64 -D D=128 --target nvptx --dump-ir-after-each 2>&1 >/dev/null | FileCheck %s --check-prefix=TWO
# RUN: tessera compile %s --entry persistent --signature "tensordesc<fp16[128,64]>:16,tensordesc<fp16[64,128]>:16,*fp32:16,i32,i32,i32,i32" -D BM=128 -D BN=128 -D BK=64 --target nvptx --emit asm | FileCheck %s --check-prefix=PERSISTENT
# RUN: tessera compile %s --entry copy_rows --signature "tensordesc<fp16[64,64]>:16:e16,tensordesc<fp16[64,64]>:16:e16" -D B=64 --target nvptx --emit asm | FileCheck %s --check-prefix=E16
# RUN: tessera compile %s --entry copy_rows --signature "tensordesc<fp16[64,64]>:16,tensordesc<fp16[64,64]>:16" -D B=64 --target nvptx --emit asm | FileCheck %s --check-prefix=RAGGED
# RUN: tessera compile %s --entry copy_rows --signature "tensordesc<fp16[64,64]>:16:e16,tensordesc<fp16[64,64]>:16:e16" -D B=64 --target nvptx --arch sm_80 --emit asm | FileCheck %s --check-prefix=E16SM80
# RUN: tessera compile %s --entry copy_rows --signature "tensordesc<fp16[64,64]>:16,tensordesc<fp16[64,64]>:16" -D B=64 --target nvptx --arch sm_80 --emit asm | FileCheck %s --check-prefix=RAGGEDSM80
# RUN: tessera compile %s --entry mm --signature "tensordesc<fp32[64,32]>:16,tensordesc<fp32[32,64]>:16,*fp32:16,i32,i32,i32" -D BM=64 -D BN=64 -D BK=32 --target nvptx --emit asm | FileCheck %s --check-prefix=GENERIC
# RUN: tessera compile %s --entry attn_out --signature "tensordesc<fp16[128,128]>:16,tensordesc<fp16[64,128]>:16,tensordesc<fp16[64,128]>:16,tensordesc<fp16[128,128]>:16,i32" -D BM=128 -D BN=64 -D D=128 --target nvptx --dump-ir-after-each 2>&1 >/dev/null | FileCheck %s --check-prefix=OUTIR
# RUN: tessera compile %s --entry attn_out --signature "tensordesc<fp16[128,128]>:16,tensordesc<fp16[64,128]>:16,tensordesc<fp16[64,128]>:16,tensordesc<fp16[128,128]>:16,i32" -D BM=128 -D BN=64 -D D=128 --target nvptx --emit asm | FileCheck %s --check-prefix=OUT
# A matmul over host tensor descriptors (Triton's TensorDescriptor, ":16":
# base and strides fit a tensor map) on sm_90a (ptxas assembles it): each
# descriptor becomes a 128-byte by-value parameter the runtime fills with a
# CUtensorMap; the loop's stages arrive by cp.async.bulk.tensor, issued by
# thread 0 after it arrives on the stage's mbarrier expecting the block's
# bytes (A: 128 x 64 bf16 = 16384; B: 64 x 256 = 32768, in four 128-byte
# atoms of 64 columns), one mbarrier per stage (four stages with the spare
# one) shared by both loads, whose first use is the same dot: it expects
# an arrival from each; every thread waits once on its phase, then wgmma
# reads the stage. No cp.async is left. Both maps are read in the
# param space (grid_constant), never copied to local memory.
# CHECK: .param .align 64 .b8 mm_param_{{[0-9]+}}[128],
# CHECK-NEXT: .param .align 64 .b8 mm_param_{{[0-9]+}}[128]
# CHECK-NOT: __local_depot
# CHECK: mbarrier.init.shared::cta.b64 [{{%r[0-9]+}}+0], 2;
# CHECK: mbarrier.init.shared::cta.b64 [{{%r[0-9]+}}+24], 2;
# CHECK-NOT: mbarrier.init
# CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [[BAR:\[%r[0-9]+\]]], 16384;
# CHECK-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{%r[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}}], [[BAR]];
# CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [[BAR]], 32768;
# CHECK-COUNT-4: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes {{.*}}, [[BAR]];
# CHECK: mbarrier.try_wait.parity.shared::cta.b64
# CHECK-NOT: mbarrier.try_wait
# CHECK: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
# CHECK: mbarrier.inval.shared::cta.b64
# CHECK-NOT: cp.async.cg
# CHECK-NOT: cp.async.ca
#
# Rows of 64 bytes: the 64-byte swizzle, one box per block.
# SWIZZLE64: mbarrier.arrive.expect_tx.shared::cta.b64 _, [{{%r[0-9]+}}], 4096;
# SWIZZLE64: wgmma.mma_async
#
# At the tile level: desc_loads from the frontend; after pipeline-loops,
# tma_copy into stage views with the tensor_map arguments it added, and
# mbarrier_wait with the phase of each use.
# IR-LABEL: after inline
# IR: desc_load {{.*}}, %a_desc, %a_desc_shape0, %a_desc_shape1, %a_desc_stride0, {{.*}} : tile<128x64xbf16>
# IR-LABEL: after pipeline-loops
# IR: %a_desc_tensor_map: ptr<i8> {tensor_map = [0, 128, 64, 128]}
# IR-SAME: %b_desc_tensor_map: ptr<i8> {tensor_map = [5, 64, 64, 128]}
# IR: mbarrier_init {{%[0-9a-z_]+}} {count = 2}
# IR: tma_copy
# IR: mbarrier_wait
# IR-NOT: mbarrier_wait
# IR: dot
# IR: mbarrier_inval
# IR-NOT: desc_load
#
# Without ":16" nothing vouches for a tensor map, nor for aligned rows:
# element by element, as before.
# UNALIGNED-NOT: cp.async.bulk.tensor
# UNALIGNED: ld.global.b16
#
# sm_80 has no tensor maps: the same loads, by cp.async.
# SM80-NOT: .param .align 64
# SM80-NOT: cp.async.bulk.tensor
# SM80: ld.global.b16
#
# The loads in a function the kernel calls (tutorial 06's _attn_fwd_inner):
# after inlining, its descriptors are the kernel's arguments again.
# HELPER: cp.async.bulk.tensor.2d
# HELPER: wgmma.mma_async
#
# Attention: Q, loaded before the loop and only ever the A operand of a dot
# in it, is kept in shared memory in a stage's form (wgmma reads it there;
# in registers it took 64 of each thread's), stored before mbarrier_init.
# ATTN-LABEL: after pipeline-loops
# ATTN: [[Q:%[0-9]+]] = local_alloc %q : smem<128x128xf16, #shared<vec = [8], per_phase = [1], max_phase = [8], order = [1, 0], atom = [64]>>
# ATTN-NEXT: mbarrier_init
# ATTN: for
# ATTN: local_load [[Q]] : tile<128x128xf16>

# Q·K^T starts from zero: its first k step is wgmma's scale-d = 0 (no
# accumulator registers zeroed each iteration); the other steps and P·V
# accumulate.
# ATTNASM-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, 0, 1, 1, 0, 0;
# ATTNASM-COUNT-14: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, 1, 1, 1, 0, 0;
# ATTNASM: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, 1, 1, 1, 1;

# Causal attention's two loops over the same Q (tutorial 06): the second
# reads the shared copy the first made, so Q is not kept in registers
# through the first loop (416 bytes of spills at BLOCK_M 128, 4 warps).
# TWO-LABEL: after pipeline-loops
# TWO: [[Q:%[0-9]+]] = local_alloc %q : smem<128x128xf16
# TWO-NOT: local_alloc %q
# TWO: local_load [[Q]] : tile<128x128xf16>
# TWO-NOT: local_alloc %q
# TWO: local_load [[Q]] : tile<128x128xf16>
# TWO-LABEL: after lower-descriptor-loads
#
# A persistent kernel (tutorial 09's): the pipelined loop is nested in the
# loop over tiles; its mbarriers are set up and ended around it each time.
# PERSISTENT-DAG: mbarrier.init.shared::cta.b64
# PERSISTENT-DAG: cp.async.bulk.tensor.2d
# PERSISTENT-DAG: mbarrier.try_wait.parity
# PERSISTENT-DAG: mbarrier.inval.shared::cta.b64
#
# Loads outside pipelined loops stay masked loads; stores go through the
# descriptor's tensor map on sm_90a (tensor-map-stores: the tile into a
# swizzled shared buffer, then cp.async.bulk.tensor from it), masked stores
# elsewhere. With ":e16" (every extent a multiple of 16) the bounds masks
# are constant over 16 elements, so rows move 16 bytes at a time; ragged
# extents mask each element.
# E16: ld.global.v4.b32
# E16: fence.proxy.async.shared::cta;
# E16: bar.sync
# E16: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%r[0-9]+}}];
# E16-NEXT: @p cp.async.bulk.commit_group;
# E16-NEXT: @p cp.async.bulk.wait_group.read 0;
# E16-NOT: st.global
# RAGGED: ld.global.b16
# RAGGED: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
# RAGGED-NOT: st.global
# E16SM80: ld.global.v4.b32
# E16SM80: st.global.v4.b32
# RAGGEDSM80: ld.global.b16
# RAGGEDSM80: st.global.b16
#
# Tutorial 06's shape: O through a descriptor too. The store becomes a
# shared copy of the tile and a tma_store (two 64-column atoms of 128
# rows); no per-row address of O is live through the loop. K and V have
# their own mbarriers: Q K^T and the softmax wait for K only, P V for V.
# P V's wgmma is left in flight (wait_group 1) until the next iteration's
# Q K^T has finished (wait_group 0), which passes the accumulator through
# before it is rescaled. Only the iteration's last wait meets the other
# threads at a barrier (before the next copies overwrite old stages).
# Every read of K's and V's stages is a wgmma (the async proxy, as the
# copies): no proxy fence before copying into a stage again. Where a stage
# is read by ld.shared (tf32 with B n-major: B^T is wgmma's A, loaded into
# registers), the copies into it keep the fence; A's, read by wgmma, not.
# GENERIC: @p mbarrier.arrive.expect_tx
# GENERIC: @p fence.proxy.async.shared::cta;
# GENERIC-NEXT: @p mbarrier.arrive.expect_tx
# GENERIC: ld.shared.v2.u32
# GENERIC: wgmma.fence.sync.aligned;
# GENERIC: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, 1, 1, 1;
# GENERIC-NOT: mma.sync
# GENERIC: mbarrier.arrive.expect_tx
# GENERIC-NOT: fence.proxy
# GENERIC: @p fence.proxy.async.shared::cta;
# GENERIC-NEXT: @p mbarrier.arrive.expect_tx
# OUTIR-LABEL: after tensor-map-stores
# OUTIR: %o_desc_tensor_map: ptr<i8> {stores = true, tensor_map = [15, 128, 64, 128]}
# OUTIR: for
# OUTIR: mbarrier_wait {{.*}} {barrier = false}
# OUTIR-NEXT: local_view
# OUTIR: dot
# OUTIR: exp2
# OUTIR: mbarrier_wait
# OUTIR-NOT: barrier = false
# OUTIR: dot
# OUTIR: [[O:%[0-9]+]] = local_alloc {{%[0-9]+}} : smem<128x128xf16
# OUTIR: tma_store [[O]], %o_desc_tensor_map,
# OUTIR-NOT: desc_store
# OUTIR-LABEL: after lower-descriptor-loads
# OUT: mbarrier.try_wait.parity
# OUT-NOT: bar.sync
# OUT: wgmma.wait_group.sync.aligned 0;
# OUT: mbarrier.try_wait.parity
# OUT: bar.sync
# OUT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
# OUT: wgmma.wait_group.sync.aligned 1;
# OUT-NOT: fence.proxy.async
# OUT: cp.async.bulk.tensor.2d.shared::cluster.global.tile
# OUT: wgmma.wait_group.sync.aligned 0;
# OUT-COUNT-2: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
# OUT-NOT: st.global
#
# Other targets load descriptors with masked loads, from the start.
# CPU-LABEL: after lower-descriptor-loads
# CPU-NOT: desc_load
# CPU-NOT: tensor_map

import tessera.language as tl


def mm(a_desc, b_desc, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([pid_m * BM, k]), b_desc.load([k, pid_n * BN]), acc)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def k_loop(a_desc, b_desc, pid_m, pid_n, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([pid_m * BM, k]), b_desc.load([k, pid_n * BN]), acc)
    return acc


def mm_in_helper(a_desc, b_desc, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    acc = k_loop(a_desc, b_desc, tl.program_id(0), tl.program_id(1), K, BM, BN, BK)
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def attn_loop(q_desc, k_desc, v_desc, N, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    q = q_desc.load([tl.program_id(0) * BM, 0])
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32) + 1.0
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start in range(0, N, BN):
        qk = tl.dot(q, k_desc.load([start, 0]).T)
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = tl.dot(p.to(tl.float16), v_desc.load([start, 0]), acc * alpha[:, None])
        m_i = m_ij
    return acc / l_i[:, None]


def attn(q_desc, k_desc, v_desc, o_ptr, N, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    o = attn_loop(q_desc, k_desc, v_desc, N, BM, BN, D)
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    tl.store(o_ptr + rm[:, None] * D + rd[None, :], o)


def attn_out(q_desc, k_desc, v_desc, o_desc, N, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    o_desc.store([tl.program_id(0) * BM, 0], attn_loop(q_desc, k_desc, v_desc, N, BM, BN, D).to(tl.float16))


def attn_two_loops(q_desc, k_desc, v_desc, o_ptr, N, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    q = q_desc.load([tl.program_id(0) * BM, 0])
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start in range(0, tl.program_id(0) * BM, BN):
        p = tl.dot(q, k_desc.load([start, 0]).T)
        acc = tl.dot(p.to(tl.float16), v_desc.load([start, 0]), acc)
    for start in range(tl.program_id(0) * BM, N, BN):
        p = tl.dot(q, k_desc.load([start, 0]).T)
        acc = tl.dot(p.to(tl.float16), v_desc.load([start, 0]), acc)
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    tl.store(o_ptr + rm[:, None] * D + tl.arange(0, D)[None, :], acc)


def persistent(a_desc, b_desc, c_ptr, M, N, K, NUM_PROGRAMS, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    tiles_n = tl.cdiv(N, BN)
    for tile in range(tl.program_id(0), tl.cdiv(M, BM) * tiles_n, NUM_PROGRAMS):
        pid_m = tile // tiles_n
        pid_n = tile % tiles_n
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            acc = tl.dot(a_desc.load([pid_m * BM, k]), b_desc.load([k, pid_n * BN]), acc)
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def copy_rows(src_desc, dst_desc, B: tl.constexpr):
    dst_desc.store([tl.program_id(0) * B, 0], src_desc.load([tl.program_id(0) * B, 0]))
