# RUN: tessera compile %s --entry mm --signature "*bf16:16,*bf16:16,*fp32:16,i32,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 -D 'PAD="zero"' --target nvptx --emit asm | FileCheck %s
# RUN: tessera compile %s --entry mm --signature "*bf16:16,*bf16:16,*fp32:16,i32,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 -D 'PAD="zero"' --target nvptx --dump-ir-after-each 2>&1 >/dev/null | FileCheck %s --check-prefix=IR
# RUN: tessera compile %s --entry mm_fixed_k --signature "*bf16:16,*bf16:16,*fp32:16,i32,i32:16" -D BM=128 -D BN=128 -D BK=64 --target nvptx --dump-ir-after-each 2>&1 >/dev/null | FileCheck %s --check-prefix=CONST
# RUN: tessera compile %s --entry rows --signature "*fp16:16,*fp16:16,*fp32:16,i32,i32,i32" -D BM=128 -D BN=64 -D D=64 --target nvptx --dump-ir-after-each 2>&1 >/dev/null | FileCheck %s --check-prefix=ROWS
# RUN: tessera compile %s --entry mm --signature "*bf16,*bf16:16,*fp32:16,i32,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 -D 'PAD="zero"' --target nvptx --emit asm | FileCheck %s --check-prefix=NOTALIGNED
# RUN: tessera compile %s --entry mm --signature "*bf16:16,*bf16:16,*fp32:16,i32,i32:16,i32" -D BM=128 -D BN=128 -D BK=64 -D 'PAD="zero"' --target nvptx --emit asm | FileCheck %s --check-prefix=NOTALIGNED
# RUN: tessera compile %s --entry mm --signature "*bf16:16,*bf16:16,*fp32:16,i32,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 -D 'PAD="nan"' --target nvptx --emit asm | FileCheck %s --check-prefix=NOTALIGNED
# RUN: tessera compile %s --entry mm_padded_stride --signature "*bf16:16,*bf16:16,*fp32:16,i32,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 --target nvptx --emit asm | FileCheck %s --check-prefix=EXPR
# RUN: tessera compile %s --entry mm --signature "*bf16:16,*bf16:16,*fp32:16,i32,i32:16,i32:16" -D BM=128 -D BN=128 -D BK=64 -D 'PAD="zero"' --target cpu --dump-ir-after-each 2>&1 >/dev/null | FileCheck %s --check-prefix=CPU
# Descriptors the kernel makes (tl.make_tensor_descriptor) from its own
# arguments get tensor maps as host descriptors do: the runtime builds each
# at launch from the arguments the tensor_map_fields name (ir/IR.h). Here A,
# B and C come in as ":16" pointers, M as an i32 (an extent needs no
# divisibility), N and K as i32:16 (strides of whole 16-byte multiples):
# three 128-byte map parameters, the loop's stages arrive by
# cp.async.bulk.tensor, wgmma reads them, and C leaves by a tensor-map store
# (fp32 rows of 128 elements: four 32-column atoms).
# CHECK: .param .align 64 .b8 mm_param_6[128],
# CHECK-NEXT: .param .align 64 .b8 mm_param_7[128],
# CHECK-NEXT: .param .align 64 .b8 mm_param_8[128]
# CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
# CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
# CHECK-COUNT-4: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
# CHECK-NOT: st.global
#
# The fields: A's extents M (argument 3, "a3") and K (a5), its leading
# stride K, the last stride 1; B's K, N (a4), N; C's M, N, N.
# IR-LABEL: after inline
# IR: desc_load {{.*}}, %a_ptr, {{.*}} : tile<128x64xbf16>
# IR-LABEL: after tensor-map-stores
# IR: %a_ptr_tensor_map: ptr<i8> {tensor_map = [0, 128, 64, 128], tensor_map_fields = "a3 a5 a5 1"}
# IR-SAME: %b_ptr_tensor_map: ptr<i8> {tensor_map = [1, 64, 64, 128], tensor_map_fields = "a5 a4 a4 1"}
# IR-SAME: %c_ptr_tensor_map: ptr<i8> {stores = true, tensor_map = [2, 128, 32, 128], tensor_map_fields = "a3 a4 a4 1"}
# IR: tma_copy
# IR: tma_store
#
# Constants are written as such (K = 512), and products of arguments and
# constants as their factors: tutorial 06's rows, Z * H * N_CTX.
# CONST-LABEL: after pipeline-loops
# CONST: %a_ptr_tensor_map: ptr<i8> {tensor_map = [0, 128, 64, 128], tensor_map_fields = "a3 512 512 1"}
# CONST-SAME: %b_ptr_tensor_map: ptr<i8> {tensor_map = [1, 64, 64, 128], tensor_map_fields = "512 a4 a4 1"}
# ROWS: %k_ptr_tensor_map: ptr<i8> {tensor_map = [1, 64, 64, 128], tensor_map_fields = "a3*a4*a5 64 64 1"}
# ROWS: tma_copy
#
# Nothing vouches for a tensor map when A's base is not ":16", when its
# stride K is not known to be a multiple of 16 bytes, or when its padding
# is NaN (a tensor map fills zeros here): the loop loads by pointers, while
# C, which still qualifies, leaves by a tensor-map store.
# NOTALIGNED: .param .align 64 .b8 mm_param_6[128]
# NOTALIGNED-NOT: .b8 mm_param_7
# NOTALIGNED-NOT: cp.async.bulk.tensor.2d.shared::cluster
# NOTALIGNED: wgmma.mma_async
# NOTALIGNED-NOT: cp.async.bulk.tensor.2d.shared::cluster
# NOTALIGNED: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
#
# A stride computed in the kernel other than as a product (K + 64) is
# nothing the runtime evaluates: no tensor map for that loop.
# EXPR-NOT: .b8 mm_padded_stride_param_{{[0-9]+}}[128]
# EXPR-NOT: cp.async.bulk.tensor
# EXPR: wgmma.mma_async
# EXPR-NOT: cp.async.bulk.tensor
#
# Other targets load the block by its pointers and mask.
# CPU-LABEL: after lower-descriptor-loads
# CPU-NOT: desc_load
# CPU-NOT: desc_store
# CPU-LABEL: after check-bounds
import tessera
import tessera.language as tl


@tessera.jit
def mm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, PAD: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK], padding_option=PAD)
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc = tl.dot(a_desc.load([tl.program_id(0) * BM, k * BK]), b_desc.load([k * BK, tl.program_id(1) * BN]), acc)
    c_desc.store([tl.program_id(0) * BM, tl.program_id(1) * BN], acc.to(c_desc.dtype))


@tessera.jit
def mm_fixed_k(a_ptr, b_ptr, c_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, 512], strides=[512, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[512, N], strides=[N, 1], block_shape=[BK, BN])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, 512 // BK):
        acc = tl.dot(a_desc.load([tl.program_id(0) * BM, k * BK]), b_desc.load([k * BK, tl.program_id(1) * BN]), acc)
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@tessera.jit
def mm_padded_stride(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K + 64, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc = tl.dot(a_desc.load([tl.program_id(0) * BM, k * BK]), b_desc.load([k * BK, tl.program_id(1) * BN]), acc)
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@tessera.jit
def rows(q_ptr, k_ptr, o_ptr, Z, H, N_CTX, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    # Tutorial 06's descriptors over every head's rows: Z * H * N_CTX.
    y_dim = Z * H * N_CTX
    q_desc = tl.make_tensor_descriptor(q_ptr, shape=[y_dim, D], strides=[D, 1], block_shape=[BM, D])
    k_desc = tl.make_tensor_descriptor(k_ptr, shape=[y_dim, D], strides=[D, 1], block_shape=[BN, D])
    start = tl.program_id(1) * N_CTX + tl.program_id(0) * BM
    q = q_desc.load([start, 0])
    acc = tl.zeros((BM, BN), tl.float32)
    for n in range(0, N_CTX, BN):
        acc += tl.dot(q, k_desc.load([tl.program_id(1) * N_CTX + n, 0]).T)
    offs = start + tl.arange(0, BM)
    tl.store(o_ptr + offs[:, None] * BN + tl.arange(0, BN)[None, :], acc)
