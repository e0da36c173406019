# RUN: tessera compile %s --entry mm --signature "*bf16:16,*bf16:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=32 --target nvptx --arch sm_86 --emit asm | FileCheck %s
# RUN: tessera compile %s --entry mm --signature "*bf16:16,*bf16:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=32 --target nvptx --arch sm_80 --emit asm | FileCheck %s
# RUN: tessera compile %s --entry mm4 --signature "*fp16:16,*fp16:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=64 -D BN=64 -D BK=64 --target nvptx --arch sm_80 --emit asm | FileCheck %s --check-prefix=STAGES4
# RUN: tessera compile %s --entry mm --signature "*bf16:16,*bf16:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 --target nvptx --emit asm | FileCheck %s --check-prefix=WGMMA
# RUN: tessera compile %s --entry mm --signature "*bf16:16,*bf16:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 --target nvptx --emit asm | FileCheck %s --check-prefix=DESC
# RUN: env TESSERA_PIPELINE_REGISTERS=1 tessera compile %s --entry mm --signature "*bf16:16,*bf16:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 --target nvptx --emit asm | FileCheck %s --check-prefix=REGSTAGED
# RUN: tessera compile %s --entry mm --signature "*fp16:16,*fp16:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=256 -D BN=128 -D BK=64 --target nvptx --num-warps 8 --emit asm | FileCheck %s --check-prefix=WGMMA8
# RUN: tessera compile %s --entry mm --signature "*fp8e4nv:16,*fp8e5:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=64 -D BN=64 -D BK=64 --target nvptx --arch sm_89 --emit asm | FileCheck %s --check-prefix=FP8
# RUN: tessera compile %s --entry mm --signature "*fp8e4nv:16,*fp8e5:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=64 -D BN=64 -D BK=64 --target nvptx --arch sm_80 --emit asm | FileCheck %s --check-prefix=FP8-SM80
# RUN: tessera compile %s --entry mmt --signature "*fp8e4nv:16,*fp8e5:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=128 --target nvptx --emit asm | FileCheck %s --check-prefix=WGMMA-FP8
# RUN: tessera compile %s --entry mmt --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=32 --target nvptx --emit asm | FileCheck %s --check-prefix=WGMMA-TF32
# RUN: tessera compile %s --entry mmt --signature "*i8:16,*i8:16,*i32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=128 -D ACC=tl.int32 --target nvptx --emit asm | FileCheck %s --check-prefix=WGMMA-I8
# RUN: tessera compile %s --entry mmt --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=32 -D PRECISION='"ieee"' --target nvptx --emit asm | FileCheck %s --check-prefix=IEEE
# RUN: tessera compile %s --entry mm --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=32 --target nvptx --emit asm | FileCheck %s --check-prefix=TF32-NMAJOR
# RUN: tessera compile %s --entry mm --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=32 --target nvptx --dump-ir-after-each 2>&1 >/dev/null | FileCheck %s --check-prefix=TF32-SWAP
# RUN: tessera compile %s --entry mmbt --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=32 -D AT=1 --target nvptx --emit asm | FileCheck %s --check-prefix=TF32-AM
# RUN: tessera compile %s --entry mmbt --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=32 -D AT=1 -D BT=0 --target nvptx --dump-ir-after-each 2>&1 >/dev/null | FileCheck %s --check-prefix=TF32-COPY
# RUN: tessera compile %s --entry mmbt --signature "*fp8e4nv:16,*fp8e4nv:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=128 --target nvptx --emit asm | FileCheck %s --check-prefix=BT-FP8
# RUN: tessera compile %s --entry mmbt --signature "*fp16:16,*fp16:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 --target nvptx --dump-ir-after-each 2>&1 >/dev/null | FileCheck %s --check-prefix=BT-IR
# RUN: tessera compile %s --entry mmbt --signature "*fp16:16,*fp16:16,*fp32:16,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=32 -D AT=1 --target nvptx --arch sm_80 --emit asm | FileCheck %s --check-prefix=BT-SM80
# A pipelined matmul on tensor cores (ptxas assembles it for sm_90a and
# sm_80): with the default 3 stages, the prologue issues the copies of two
# iterations (16-byte cp.async to a 32-bit shared address, zero-filled
# past the edges) as two groups;
# each iteration waits until one group is left in flight, reads its stage
# with ldmatrix (b, contiguous along n, transposed), each ldmatrix just
# before its first mma, runs 64 m16n8k16 mma.sync per warp (its 64 x 64 of
# the result, two k steps), and issues the copies of the iteration two
# ahead. All copies are waited for after
# the loop.
# CHECK: cp.async.cg.shared.global [{{%r[0-9]+}}], [{{%rd[0-9]+}}], 16, {{%r[0-9]+}};
# CHECK: cp.async.commit_group;
# CHECK: cp.async.commit_group;
# CHECK: [[LOOP:\$L__BB0_[0-9]+]]:
# CHECK-NEXT: cp.async.wait_group 1;
# CHECK-NEXT: bar.sync 0;
# CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# CHECK-COUNT-64: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
# CHECK-NOT: mma.sync
# CHECK: cp.async.cg.shared.global
# CHECK: bra {{\$L__BB0_[0-9]+}}
# CHECK: cp.async.wait_group 0;
# CHECK-NOT: cp.async.c
# Hopper (the default sm_90a): the stages are read in place by wgmma. Each
# iteration waits for its copies, then (after the barrier) fences them for
# the async proxy, and
# issues 8 m64n128k16 (two 64-row halves x four k steps; A k-major, B
# n-major: the transpose immediates 0, 1) with no ldmatrix; one group stays
# in flight into the next iteration, and the drain after the loop waits for
# it before the barrier.
# Descriptors: one per operand and stage (the address's shift, mask and or);
# every other wgmma of the stage adds a constant to it.
# DESC: wgmma.fence.sync.aligned;
# DESC: wgmma.mma_async.sync.aligned.m64n128k16
# DESC-NOT: shr.u32
# DESC: add.s64 [[D:%rd[0-9]+]], %rd{{[0-9]+}}, {{[0-9]+}};
# DESC-NEXT: // begin inline asm
# DESC-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, [[D]], %rd{{[0-9]+}}, 1, 1, 1, 0, 1;
# DESC-NOT: shr.u32
# DESC: wgmma.commit_group.sync.aligned;
# WGMMA: cp.async.commit_group;
# WGMMA: cp.async.commit_group;
# WGMMA: cp.async.wait_group 1;
# WGMMA: bar.sync 0;
# WGMMA: fence.proxy.async.shared::cta;
# WGMMA-NOT: ldmatrix
# WGMMA: wgmma.fence.sync.aligned;
# WGMMA-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, 1, 1, 1, 0, 1;
# WGMMA-NOT: wgmma.mma_async
# WGMMA: wgmma.commit_group.sync.aligned;
# WGMMA: wgmma.wait_group.sync.aligned 1;
# WGMMA: cp.async.cg.shared.global
# WGMMA: cp.async.wait_group 0;
# WGMMA: wgmma.wait_group.sync.aligned 0;
# WGMMA: bar.sync 0;
# WGMMA: fence.proxy.async.shared::cta;
# Stages staged through registers (plain stores into one buffer, rewritten
# each iteration) stay on mma.sync: a wgmma could still be reading.
# REGSTAGED-NOT: wgmma
# REGSTAGED: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
# REGSTAGED-NOT: wgmma
# Two warpgroups (8 warps, 256 rows): 2 x 4 instructions per warpgroup, and a
# spare fourth stage (4 x 48 KiB), so one group may still stay in flight.
# WGMMA8: .extern .shared .align 1024 .b8 tessera_shared[];
# WGMMA8-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
# WGMMA8-NOT: wgmma.mma_async
# WGMMA8: wgmma.wait_group.sync.aligned 1;
# tl.range(..., num_stages=4): two groups may stay in flight.
# STAGES4: cp.async.wait_group 2;
# STAGES4: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
# fp8 (e4m3 x e5m2, Triton lets two fp8 types mix) on sm_89: m16n8k32 with
# f32 accumulators, 16 per warp and iteration (32 x 32 of the result, two k
# steps); PTX 8.4. sm_80 has no fp8 mma: CUDA cores.
# FP8: .version 8.4
# FP8-COUNT-16: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32
# FP8-NOT: mma.sync
# FP8-SM80-NOT: mma.sync
# wgmma's other input types read both operands k-major (B given as n x k,
# `mmt`), with no transpose immediates: fp8 (e4m3 x e5m2) k32 and tf32 k8
# with f32 accumulators and the input scales; 8-bit integers k32 into
# saturating s32 with the accumulate flag alone.
# WGMMA-FP8-NOT: ldmatrix
# WGMMA-FP8-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e5m2 {{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, 1, 1, 1;
# WGMMA-FP8-NOT: mma.sync
# WGMMA-TF32-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, 1, 1, 1;
# WGMMA-TF32-NOT: mma.sync
# WGMMA-I8-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k32.satfinite.s32.s8.s8 {%r{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, 1;
# WGMMA-I8-NOT: mma.sync
# f32 dots at full precision have no tensor-core instruction.
# IEEE-NOT: mma
# tf32 with B n-major: wgmma reads 32-bit operands from shared memory only
# k-major, so it multiplies C^T = B^T A^T: B^T is its A, loaded from the
# stage into registers (8-byte loads: rowOrder puts each thread's two rows
# side by side), A's stage is its B (k-major), and nothing is copied
# (module attribute k_major_dot_registers). The register loads come before
# the fence; the instruction's n is BM.
# TF32-NMAJOR-NOT: cp.async.ca
# TF32-NMAJOR: cp.async.cg.shared.global [{{%r[0-9]+}}], [{{%rd[0-9]+}}], 16, {{%r[0-9]+}};
# TF32-NMAJOR: cp.async.wait_group 1;
# TF32-NMAJOR: fence.proxy.async.shared::cta;
# TF32-NMAJOR-NOT: st.shared
# TF32-NMAJOR-COUNT-16: ld.shared.v2.u32
# TF32-NMAJOR-NOT: st.shared
# TF32-NMAJOR: wgmma.fence.sync.aligned;
# TF32-NMAJOR-NOT: ld.shared
# TF32-NMAJOR-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, 1, 1, 1;
# TF32-NMAJOR-NOT: mma.sync
# The layouts (assign-layouts): B^T's registers hold, per thread, k = t and
# t + 4 (lane bits 0-1, register bit 1), rows n 2g and 2g + 1 (lane bits 2-4
# to n bits 1, 2 and 4, register bit 0 to n bit 0); the accumulator is the
# transpose, its rows (m) wgmma's columns.
# TF32-SWAP: IR after assign-layouts
# TF32-SWAP: local_load {{.*}} : tile<32x128xf32, #linear<register = [0, 1, 4, 0, 8, 0, 16, 0, 0, 64], lane = [1, 0, 2, 0, 0, 2, 0, 4, 0, 16], warp = [0, 8, 0, 32]>>
# TF32-SWAP-NEXT: dot {{.*}} : tile<128x128xf32, #linear<register = [1, 0, 0, 1, 8, 0, 16, 0, 32, 0, 64, 0, 0, 64], lane = [2, 0, 4, 0, 0, 2, 0, 4, 0, 16], warp = [0, 8, 0, 32]>>
# A m-major (given as k x m, `mmbt` with AT) comes from registers in the same way,
# the instruction unswapped; with B n-major as well, B's stage is copied
# k-major through registers into a buffer of two entries, which wgmma
# reads (single-element reads, 16-byte stores, a proxy fence).
# TF32-AM-NOT: st.shared.v4
# TF32-AM-COUNT-16: ld.shared.v2.u32
# TF32-AM: wgmma.fence.sync.aligned;
# TF32-AM-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, 1, 1, 1;
# TF32-AM-NOT: mma.sync
# TF32-COPY: IR after assign-layouts
# TF32-COPY: local_alloc : smem<2x32x128xf32, #shared<{{.*}}order = [1, 2]>>
# TF32-COPY: local_alloc : smem<3x32x128xf32, #shared<{{.*}}order = [2, 1]{{.*}}>>
# TF32-COPY: local_load {{.*}} : tile<32x128xf32, #blocked<size_per_thread = [4, 1], threads_per_warp = [4, 8], warps_per_cta = [2, 2], order = [1, 0]>>
# TF32-COPY: rem
# TF32-COPY-NEXT: local_view
# TF32-COPY-NEXT: local_store
# Operands loaded as their transposes and transposed back (`b.T`, as
# Triton's descriptor matmuls write it) are pipelined too: the stage is
# read through a transposed view (local_trans), so fp8 B given as n x k is
# k-major for wgmma, and on sm_80 A given as k x m reaches mma.sync.
# BT-IR: IR after pipeline-loops
# BT-IR: local_alloc : smem<3x128x64xf16
# BT-IR: for
# BT-IR: %[[VIEW:[0-9]+]] = local_view %{{[0-9]+}}, %[[SLOT:[0-9]+]] : smem<128x64xf16, #shared<vec = [8], per_phase = [1], max_phase = [8], order = [1, 0]>>
# BT-IR-NEXT: local_load %[[VIEW]] : tile<128x64xf16>
# BT-IR-NEXT: %[[VIEWB:[0-9]+]] = local_view %{{[0-9]+}}, %[[SLOT]]
# BT-IR-NEXT: %[[T:[0-9]+]] = local_trans %[[VIEWB]] : smem<64x128xf16, #shared<vec = [8], per_phase = [1], max_phase = [8], order = [0, 1]>>
# BT-IR-NEXT: local_load %[[T]] : tile<64x128xf16>
# BT-IR-NOT: trans %
# BT-IR: dot
# BT-FP8-NOT: mma.sync
# BT-FP8-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, 1, 1, 1;
# BT-FP8-NOT: mma.sync
# BT-SM80: cp.async.wait_group 1;
# BT-SM80: ldmatrix
# BT-SM80: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
import tessera.language as tl


def mm(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        x = tl.load(a + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        y = tl.load(b + kk[:, None] * N + rn[None, :], mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(x, y, acc)
    tl.store(c + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def mm4(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in tl.range(0, K, BK, num_stages=4):
        x = tl.load(a + rm[:, None] * K + (k0 + rk)[None, :])
        y = tl.load(b + (k0 + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(x, y, acc)
    tl.store(c + rm[:, None] * N + rn[None, :], acc)


# B given as n x k (its k contiguous): C = A B with both operands k-major.
def mmt(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, ACC: tl.constexpr = tl.float32,
        PRECISION: tl.constexpr = "tf32"):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), ACC)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        x = tl.load(a + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0)
        y = tl.load(b + rn[None, :] * K + kk[:, None], mask=(kk[:, None] < K) & (rn[None, :] < N), other=0)
        acc = tl.dot(x, y, acc, input_precision=PRECISION, out_dtype=ACC)
    tl.store(c + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


# B given as n x k and transposed for the dot (A too, as k x m, with AT);
# B as k x n with BT = 0.
def mmbt(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, AT: tl.constexpr = 0,
         BT: tl.constexpr = 1):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        if AT:
            x = tl.load(a + kk[:, None] * M + rm[None, :]).T
        else:
            x = tl.load(a + rm[:, None] * K + kk[None, :])
        if BT:
            y = tl.load(b + rn[:, None] * K + kk[None, :]).T
        else:
            y = tl.load(b + kk[:, None] * N + rn[None, :])
        acc = tl.dot(x, y, acc)
    tl.store(c + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
