# RUN: tessera compile %s --entry mm --signature "tensordesc<bf16[128,64]>:16,tensordesc<bf16[64,256]>:16,tensordesc<bf16[128,256]>:16,i32" -D BM=128 -D BN=256 -D BK=64 -D WS=1 --num-warps 8 --num-stages 3 --target nvptx --arch sm_90a --dump-ir-after-each 2>&1 | sed -n "/IR after pipeline-loops/,/IR after tensor-map-stores/p" | FileCheck %s --check-prefix=TILE
# RUN: tessera compile %s --entry mm --signature "tensordesc<bf16[128,64]>:16,tensordesc<bf16[64,256]>:16,tensordesc<bf16[128,256]>:16,i32" -D BM=128 -D BN=256 -D BK=64 -D WS=1 --num-warps 8 --num-stages 3 --target nvptx --arch sm_90a --emit asm > %t.ws.ptx
# RUN: FileCheck %s --check-prefix=PTX < %t.ws.ptx
# RUN: tessera compile %s --entry mm --signature "tensordesc<bf16[128,64]>:16,tensordesc<bf16[64,256]>:16,tensordesc<bf16[128,256]>:16,i32" -D BM=128 -D BN=256 -D BK=64 -D WS=0 --num-warps 8 --num-stages 3 --target nvptx --arch sm_90a --emit asm | FileCheck %s --check-prefix=PLAIN
# RUN: tessera compile %s --entry mm --signature "tensordesc<fp32[128,32]>:16,tensordesc<fp32[32,128]>:16,tensordesc<fp32[128,128]>:16,i32" -D BM=128 -D BN=128 -D BK=32 -D WS=1 --num-warps 4 --target nvptx --arch sm_90a --emit asm | FileCheck %s --check-prefix=TF32-NMAJOR
# RUN: tessera compile %s --entry mm_bias --signature "tensordesc<bf16[128,64]>:16,tensordesc<bf16[64,256]>:16,tensordesc<bf16[128,256]>:16,*fp32:16,i32" -D BM=128 -D BN=256 -D BK=64 --num-warps 8 --target nvptx --arch sm_90a --emit asm | FileCheck %s --check-prefix=PLAIN
# RUN: tessera compile %s --entry mm --signature "tensordesc<bf16[128,64]>:16,tensordesc<bf16[64,256]>:16,tensordesc<bf16[128,256]>:16,i32" -D BM=128 -D BN=256 -D BK=64 -D WS=1 --num-warps 8 --target nvptx --arch sm_80 --emit asm | FileCheck %s --check-prefix=PLAIN
#
# tl.range(..., warp_specialize=True) on a loop of tensor-map copies feeding
# wgmma: a producer warpgroup joins the 8 warps. Its first warp issues
# every copy in its own loop, after the entry's release mbarrier says the
# consumers are done with it (parity 1 on an entry's first use passes at
# once); the consumers wait on the copies without a barrier and release the
# entry of the iteration before once this one's wgmmas are issued.
# TILE: mbarrier_init %[[FULL:[0-9]+]] {count = 2}
# TILE: %[[REL:[0-9]+]] = local_alloc : smem<4xi64
# TILE-NEXT: mbarrier_init %[[REL]] {count = 8}
# TILE-NEXT: warp_specialize {producer_warps = 4} {
# TILE: for
# TILE: mbarrier_wait %[[REL]], %{{[0-9]+}}, %{{[0-9]+}} {barrier = false}
# TILE: tma_copy
# TILE: tma_copy
# TILE: for {{.*}}{nonempty = true, warp_specialize = true}
# TILE-NOT: tma_copy
# TILE: mbarrier_wait %[[FULL]], {{.*}} {barrier = false}
# TILE-NOT: mbarrier_wait
# TILE: dot
# TILE: mbarrier_arrive %[[REL]]
# TILE-NEXT: yield
# TILE: mbarrier_inval %[[FULL]]
# TILE-NEXT: mbarrier_inval %[[REL]]
#
# 384 threads: the producer keeps 40 registers and gives the 256 consumers
# 232 each; their barriers meet only them (named barrier 1); the copies
# are thread 256's.
# PTX: .maxntid 384, 1, 1
# PTX: bar.sync 0;
# PTX: setmaxnreg.inc.sync.aligned.u32 232;
# PTX: mbarrier.try_wait.parity
# PTX: wgmma.mma_async
# PTX: wgmma.wait_group.sync.aligned 1;
# PTX: bar.warp.sync -1;
# PTX-NEXT: @p mbarrier.arrive.shared::cta.b64
# PTX: barrier.sync 1, 256;
# PTX: setmaxnreg.dec.sync.aligned.u32 40;
# PTX: setp.eq.s32 %p{{[0-9]+}}, %r{{[0-9]+}}, 256;
# PTX: mbarrier.try_wait.parity
# PTX: mbarrier.arrive.expect_tx
# PTX-NOT: bar.sync
# PTX-NOT: barrier.sync 0
#
# Without the hint, before a loop with a tensor-map load in front of it
# (the producer's warps would run that load), and before sm_90a: no producer.
# PLAIN-NOT: setmaxnreg
# PLAIN-NOT: mbarrier.arrive.shared
# PLAIN: .maxntid 256, 1, 1
# PLAIN-NOT: setmaxnreg
# PLAIN-NOT: mbarrier.arrive.shared
#
# tf32 with an n-major B reads B's stage through registers (B^T is the
# instruction's A): a producer too, and the consumers' loop runs two copies
# of its body per iteration, which load the stage into different registers
# (the wgmma left in flight still reads the last copy's).
# TF32-NMAJOR: .maxntid 256, 1, 1
# TF32-NMAJOR: ld.shared.v2.u32 {[[A0:%r[0-9]+]], {{%r[0-9]+}}}
# TF32-NMAJOR: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {{.*}} {[[A0]],
# TF32-NMAJOR: wgmma.wait_group.sync.aligned 1;
# TF32-NMAJOR: mbarrier.arrive.shared
# TF32-NMAJOR-NOT: {[[A0]], {{%r[0-9]+}}}
# TF32-NMAJOR: ld.shared.v2.u32 {[[A1:%r[0-9]+]], {{%r[0-9]+}}}
# TF32-NMAJOR: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {{.*}} {[[A1]],
# TF32-NMAJOR: wgmma.wait_group.sync.aligned 1;
# TF32-NMAJOR: mbarrier.arrive.shared
import tessera.language as tl


def mm(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, WS: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in tl.range(0, K, BK, warp_specialize=WS):
        acc = tl.dot(a_desc.load([pid_m * BM, k]), b_desc.load([k, pid_n * BN]), acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(c_desc.dtype))


def mm_bias(a_desc, b_desc, c_desc, bias, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    acc = tl.load(bias + pid_n * BN + tl.arange(0, BN))[None, :] + tl.zeros((BM, BN), tl.float32)
    for k in tl.range(0, K, BK, warp_specialize=True):
        acc = tl.dot(a_desc.load([pid_m * BM, k]), b_desc.load([k, pid_n * BN]), acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(c_desc.dtype))
