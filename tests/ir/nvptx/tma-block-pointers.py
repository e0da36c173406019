# RUN: tessera compile %s --entry mm --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 -D CHECKED=2 -D STORE=2 -D 'PAD="zero"' --num-warps 4 --num-stages 3 --target nvptx --arch sm_90a --emit asm | FileCheck %s
# RUN: tessera compile %s --entry mm --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 -D CHECKED=1 -D STORE=2 -D 'PAD="zero"' --num-warps 4 --num-stages 3 --target nvptx --arch sm_90a --emit asm | FileCheck %s --check-prefix=POINTERS
# RUN: tessera compile %s --entry mm --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 -D CHECKED=2 -D STORE=2 -D 'PAD="nan"' --num-warps 4 --num-stages 3 --target nvptx --arch sm_90a --emit asm | FileCheck %s --check-prefix=NAN
# RUN: tessera compile %s --entry mm --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 -D CHECKED=2 -D STORE=2 -D 'PAD="zero"' --num-warps 4 --num-stages 3 --target nvptx --arch sm_90a --emit asm | FileCheck %s --check-prefix=MIXED
# RUN: tessera compile %s --entry mm --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 -D CHECKED=2 -D STORE=1 -D 'PAD="zero"' --num-warps 4 --num-stages 3 --target nvptx --arch sm_90a --emit asm | FileCheck %s --check-prefix=STORE-ONE-DIM
# RUN: tessera compile %s --entry mm --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 -D CHECKED=2 -D STORE=3 -D 'PAD="zero"' --num-warps 4 --num-stages 3 --target nvptx --arch sm_90a --emit asm | FileCheck %s --check-prefix=STORE-READ-BACK
# Block pointers (tl.make_block_ptr / tl.advance) with a last stride of 1,
# loaded with boundary_check on every dimension, are descriptors' loads: on
# sm_90a the pipelined loop copies A's and B's blocks by tensor maps built
# at launch from the kernel's arguments, and wgmma reads them. Stored with
# boundary_check on every dimension, C's block is written by a tensor map
# too (a third map argument), from shared memory.
# CHECK: .param .align 64 .b8 mm_param_9[128],
# CHECK-NEXT: .param .align 64 .b8 mm_param_10[128],
# CHECK-NEXT: .param .align 64 .b8 mm_param_11[128]
# CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
# CHECK: wgmma.mma_async
# CHECK-NOT: cp.async.ca
# CHECK-NOT: cp.async.cg
# CHECK-NOT: st.global
# CHECK: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
# CHECK-NOT: st.global
#
# Checked along one dimension only (a block may then read past the shape
# it names): pointer loads, copied by cp.async. Padded with NaN: pointer
# loads too.
# POINTERS-NOT: cp.async.bulk.tensor.2d.shared::cluster
# POINTERS: cp.async.cg
# POINTERS-NOT: cp.async.bulk.tensor.2d.shared::cluster
# NAN-NOT: cp.async.bulk.tensor.2d.shared::cluster
# NAN: ld.global
# NAN-NOT: cp.async.bulk.tensor.2d.shared::cluster
#
# C stored with boundary_check on one dimension (a block may then write
# past the shape it names, which a map would not): pointer stores. C read
# back in the kernel (C += A @ B) after the store of the tile before it
# would be: the tensor map's writes are not waited for, so pointer stores.
# STORE-ONE-DIM: cp.async.bulk.tensor.2d.shared::cluster
# STORE-ONE-DIM-NOT: cp.async.bulk.tensor.2d.global
# STORE-ONE-DIM: st.global
# STORE-ONE-DIM-NOT: cp.async.bulk.tensor.2d.global
# STORE-READ-BACK: cp.async.bulk.tensor.2d.shared::cluster
# STORE-READ-BACK-NOT: cp.async.bulk.tensor.2d.global
# STORE-READ-BACK: st.global
# STORE-READ-BACK-NOT: cp.async.bulk.tensor.2d.global
#
# A's rows a stride not known to be whole 16 bytes: no map can describe A,
# and the loop copies both blocks by pointers; C's one map remains.
# MIXED: .param .align 64 .b8 mm_param_9[128]
# MIXED-NOT: mm_param_10
# MIXED-NOT: cp.async.bulk.tensor.2d.shared::cluster
# MIXED: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
import tessera.language as tl


def mm(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, BM: tl.constexpr, BN: tl.constexpr,
       BK: tl.constexpr, CHECKED: tl.constexpr, STORE: tl.constexpr, PAD: tl.constexpr):
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
    if STORE == 1:
        tl.store(c_bp, acc.to(tl.float16), boundary_check=(0,))
    else:
        if STORE == 3:
            acc += tl.load(c_bp, boundary_check=(0, 1)).to(tl.float32)
        tl.store(c_bp, acc.to(tl.float16), boundary_check=(0, 1))
