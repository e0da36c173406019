# RUN: tessera compile %s --entry mm --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 -D CHECKED=2 -D 'PAD="zero"' --num-warps 4 --num-stages 3 --target nvptx --arch sm_90a --emit asm | FileCheck %s
# RUN: tessera compile %s --entry mm --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 -D CHECKED=1 -D 'PAD="zero"' --num-warps 4 --num-stages 3 --target nvptx --arch sm_90a --emit asm | FileCheck %s --check-prefix=POINTERS
# RUN: tessera compile %s --entry mm --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 -D CHECKED=2 -D 'PAD="nan"' --num-warps 4 --num-stages 3 --target nvptx --arch sm_90a --emit asm | FileCheck %s --check-prefix=NAN
# RUN: tessera compile %s --entry mm --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 -D CHECKED=2 -D 'PAD="zero"' --num-warps 4 --num-stages 3 --target nvptx --arch sm_90a --emit asm | FileCheck %s --check-prefix=MIXED
# Block pointers (tl.make_block_ptr / tl.advance) with a last stride of 1,
# loaded with boundary_check on every dimension, are descriptors' loads: on
# sm_90a the pipelined loop copies A's and B's blocks by tensor maps built
# at launch from the kernel's arguments, and wgmma reads them.
# CHECK: .param .align 64 .b8 mm_param_9[128],
# CHECK-NEXT: .param .align 64 .b8 mm_param_10[128]
# CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
# CHECK: wgmma.mma_async
# CHECK-NOT: cp.async.ca
# CHECK-NOT: cp.async.cg
#
# Checked along one dimension only (a block may then read past the shape
# it names): pointer loads, copied by cp.async. Padded with NaN: pointer
# loads too.
# POINTERS-NOT: cp.async.bulk.tensor
# POINTERS: cp.async.cg
# POINTERS-NOT: cp.async.bulk.tensor
# NAN-NOT: cp.async.bulk.tensor
# NAN: ld.global
# NAN-NOT: cp.async.bulk.tensor
#
# A's rows a stride not known to be whole 16 bytes: no map can describe A,
# and the loop copies both blocks by pointers.
# MIXED-NOT: .param .align 64
# MIXED-NOT: cp.async.bulk.tensor
import tessera.language as tl


def mm(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, BM: tl.constexpr, BN: tl.constexpr,
       BK: tl.constexpr, CHECKED: tl.constexpr, PAD: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    a_bp = tl.make_block_ptr(a_ptr, (M, K), (stride_am, 1), (pid_m * BM, 0), (BM, BK), (1, 0))
    b_bp = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, 1), (0, pid_n * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        if CHECKED == 2:
            a = tl.load(a_bp, boundary_check=(0, 1), padding_option=PAD)
            b = tl.load(b_bp, boundary_check=(0, 1), padding_option=PAD)
        else:
            a = tl.load(a_bp, boundary_check=(0,), padding_option=PAD)
            b = tl.load(b_bp, boundary_check=(1,), padding_option=PAD)
        acc = tl.dot(a, b, acc)
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    c_bp = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c_bp, acc.to(tl.float16), boundary_check=(0, 1))
