# Cooperative-matrix dots (SPV_KHR_cooperative_matrix) on the Vulkan flavour,
# when the arch lists the device's shapes after -cm (runtime/vulkan queries
# them; targets/spirv/CooperativeMatrix.h spells them): a 64x64 tile with
# k = 32 per step, 4 subgroups in 2 x 2 blocks of 2 x 2 16x16 matrices.
# Each module is assembled back and validated by SPIRV-Tools 2025.5 for Vulkan 1.3.
# DEFINE: %{cm} = sg32-48k-cm16x16x16_f16_f16_f32_f32_sg+16x16x16_bf16_bf16_f32_f32_sg+16x16x32_s8_s8_s32_s32_sg
# DEFINE: %{mm} = tessera compile %s --entry matmul --target vulkan -D BM=64 -D BN=64
# RUN: %{mm} --signature "*fp16:16,*fp16:16,*fp32:16,i32,i32,i32" -D BK=32 -D ACC=tl.float32 --arch %{cm} --emit asm > %t.f16.s
# RUN: FileCheck %s --check-prefixes=CHECK,F16 < %t.f16.s
# RUN: spirv-as --target-env vulkan1.3 --preserve-numeric-ids %t.f16.s -o %t.f16.spv && spirv-val --target-env vulkan1.3 %t.f16.spv
# RUN: %{mm} --signature "*bf16:16,*bf16:16,*fp32:16,i32,i32,i32" -D BK=32 -D ACC=tl.float32 --arch %{cm} --emit asm > %t.bf16.s
# RUN: FileCheck %s --check-prefixes=CHECK,BF16 < %t.bf16.s
# RUN: spirv-as --target-env vulkan1.3 --preserve-numeric-ids %t.bf16.s -o %t.bf16.spv && spirv-val --target-env vulkan1.3 %t.bf16.spv
# RUN: %{mm} --signature "*i8:16,*i8:16,*i32:16,i32,i32,i32" -D BK=64 -D ACC=tl.int32 --arch %{cm} --emit asm > %t.i8.s
# RUN: FileCheck %s --check-prefixes=CHECK,I8 < %t.i8.s
# RUN: spirv-as --target-env vulkan1.3 --preserve-numeric-ids %t.i8.s -o %t.i8.spv && spirv-val --target-env vulkan1.3 %t.i8.spv
#
# Without -cm (lavapipe, or any device without the extension) the same dot
# stays on the SIMT lanes, under GLSL450's memory model.
# RUN: %{mm} --signature "*fp16:16,*fp16:16,*fp32:16,i32,i32,i32" -D BK=32 -D ACC=tl.float32 --arch sg32-48k --emit asm | FileCheck %s --check-prefix=SIMT
# A table without the dot's types: SIMT too.
# RUN: %{mm} --signature "*fp16:16,*fp16:16,*fp32:16,i32,i32,i32" -D BK=32 -D ACC=tl.float32 --arch sg32-48k-cm16x16x32_s8_s8_s32_s32_sg --emit asm | FileCheck %s --check-prefix=SIMT
# k = 8 per step is not a multiple of the table's k = 16: SIMT.
# RUN: %{mm} --signature "*fp16:16,*fp16:16,*fp32:16,i32,i32,i32" -D BK=8 -D ACC=tl.float32 --arch %{cm} --emit asm | FileCheck %s --check-prefix=SIMT
# RUN: not %{mm} --signature "*fp16:16,*fp16:16,*fp32:16,i32,i32,i32" -D BK=32 -D ACC=tl.float32 --arch sg32-48k-cm16x16x16_f16_f16_f32 2>&1 | FileCheck %s --check-prefix=MALFORMED
# RUN: not %{mm} --signature "*fp16:16,*fp16:16,*fp32:16,i32,i32,i32" -D BK=32 -D ACC=tl.float32 --arch sg32-48k-cm16x16x16_f16_f16_f64_f64_sg 2>&1 | FileCheck %s --check-prefix=UNKNOWN
# Global atomics beside cooperative matrices: Device scope under the Vulkan
# memory model declares VulkanMemoryModelDeviceScope.
# RUN: tessera compile %s --entry counted --target vulkan --signature "*fp16:16,*fp16:16,*fp32:16,*i32" --arch %{cm} -o %t.atomic.spv
# RUN: spirv-val --target-env vulkan1.3 %t.atomic.spv && spirv-dis %t.atomic.spv | FileCheck %s --check-prefix=ATOMIC
# RUN: not tessera compile %s --entry matmul --target opencl -D BM=64 -D BN=64 --signature "*fp16:16,*fp16:16,*fp32:16,i32,i32,i32" -D BK=32 -D ACC=tl.float32 --arch %{cm} 2>&1 | FileCheck %s --check-prefix=OPENCL

# CHECK-DAG: OpCapability CooperativeMatrixKHR
# CHECK-DAG: OpCapability VulkanMemoryModel
# CHECK-DAG: OpExtension "SPV_KHR_cooperative_matrix"
# CHECK: OpMemoryModel PhysicalStorageBuffer64 Vulkan
# Subgroup scope (3), uses A (0), B (1), accumulator (2).
# F16: [[A:%[0-9]+]] = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_0
# F16-NEXT: [[B:%[0-9]+]] = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_1
# F16-NEXT: [[C:%[0-9]+]] = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_16 %uint_16 %uint_2
# BF16: %bfloat16 = OpTypeFloat 16 BFloat16KHR
# BF16: [[A:%[0-9]+]] = OpTypeCooperativeMatrixKHR %bfloat16 %uint_3 %uint_16 %uint_16 %uint_0
# BF16-NEXT: [[B:%[0-9]+]] = OpTypeCooperativeMatrixKHR %bfloat16 %uint_3 %uint_16 %uint_16 %uint_1
# BF16-NEXT: [[C:%[0-9]+]] = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_16 %uint_16 %uint_2
# I8: [[A:%[0-9]+]] = OpTypeCooperativeMatrixKHR %uchar %uint_3 %uint_16 %uint_32 %uint_0
# I8-NEXT: [[B:%[0-9]+]] = OpTypeCooperativeMatrixKHR %uchar %uint_3 %uint_32 %uint_16 %uint_1
# I8-NEXT: [[C:%[0-9]+]] = OpTypeCooperativeMatrixKHR %uint %uint_3 %uint_16 %uint_16 %uint_2
# The loop over k stores the operands to workgroup memory, then a barrier,
# then each subgroup's accumulators come from there (rows of 64 f32 + 16
# bytes of padding: 68 words apart) ...
# (tests/ir/thread/coop-mma.tir checks the barriers around them).
# CHECK: OpLoopMerge
# CHECK: OpCooperativeMatrixLoadKHR [[C]] %{{[0-9]+}} %uint_0 %uint_68 NonPrivatePointer
# ... then A and B (f16/bf16: rows of 32 + 8 elements, 20 words; 64 + 8, 36
# words; int8: rows of 64 + 16, 20 words; 64 + 16, 20 words) ...
# F16: OpCooperativeMatrixLoadKHR [[A]] %{{[0-9]+}} %uint_0 %uint_20 NonPrivatePointer
# F16: OpCooperativeMatrixLoadKHR [[B]] %{{[0-9]+}} %uint_0 %uint_36 NonPrivatePointer
# BF16: OpCooperativeMatrixLoadKHR [[A]] %{{[0-9]+}} %uint_0 %uint_20 NonPrivatePointer
# BF16: OpCooperativeMatrixLoadKHR [[B]] %{{[0-9]+}} %uint_0 %uint_36 NonPrivatePointer
# I8: OpCooperativeMatrixLoadKHR [[A]] %{{[0-9]+}} %uint_0 %uint_20 NonPrivatePointer
# I8: OpCooperativeMatrixLoadKHR [[B]] %{{[0-9]+}} %uint_0 %uint_20 NonPrivatePointer
# ... 2 x 2 multiply-adds per k step of 16 (f16, bf16: two steps) or 32 (int8: two steps), signed for int8 ...
# F16-COUNT-8: OpCooperativeMatrixMulAddKHR [[C]] %{{[0-9]+}} %{{[0-9]+}} %{{[0-9]+}}{{$}}
# BF16-COUNT-8: OpCooperativeMatrixMulAddKHR [[C]] %{{[0-9]+}} %{{[0-9]+}} %{{[0-9]+}}{{$}}
# I8-COUNT-8: OpCooperativeMatrixMulAddKHR [[C]] %{{[0-9]+}} %{{[0-9]+}} %{{[0-9]+}} MatrixASignedComponentsKHR|MatrixBSignedComponentsKHR|MatrixCSignedComponentsKHR|MatrixResultSignedComponentsKHR
# CHECK-NOT: OpCooperativeMatrixMulAddKHR
# ... stored back, and after a barrier every thread reads its accumulator registers.
# CHECK-COUNT-4: OpCooperativeMatrixStoreKHR %{{[0-9]+}} %{{[0-9]+}} %uint_0 %uint_68 NonPrivatePointer
# CHECK: OpControlBarrier %uint_2 %uint_2 %uint_264
# CHECK: OpLoad %uint %{{[0-9]+}} NonPrivatePointer

# ATOMIC-DAG: OpCapability VulkanMemoryModelDeviceScope
# ATOMIC-DAG: OpCooperativeMatrixMulAddKHR
# ATOMIC-DAG: OpAtomicIAdd %uint %{{[0-9]+}} %uint_1

# SIMT-NOT: CooperativeMatrix
# SIMT: OpMemoryModel PhysicalStorageBuffer64 GLSL450
# SIMT-NOT: CooperativeMatrix
# MALFORMED: unsupported SPIR-V architecture 'sg32-48k-cm16x16x16_f16_f16_f32' (expected sg<subgroup size>[-<shared memory KiB>k][-cm<cooperative matrices>], e.g. sg32-48k): malformed cooperative-matrix entry '16x16x16_f16_f16_f32' (expected MxNxK_A_B_C_R_scope, e.g. 16x16x16_f16_f16_f32_f32_sg)
# UNKNOWN: unknown cooperative-matrix component type 'f64' (known: f16, bf16, f32, s8, u8, s32, u32)
# OPENCL: cooperative matrices (-cm in the arch) need the vulkan flavour
import tessera.language as tl


def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, ACC: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=ACC)
    for k in range(0, tl.cdiv(K, BK)):
        kk = k * BK + rk
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0)
        b = tl.load(b_ptr + kk[:, None] * N + rn[None, :], mask=(kk[:, None] < K) & (rn[None, :] < N), other=0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def counted(a_ptr, b_ptr, c_ptr, count_ptr):
    r = tl.arange(0, 32)
    c = tl.dot(tl.load(a_ptr + r[:, None] * 32 + r[None, :]), tl.load(b_ptr + r[:, None] * 32 + r[None, :]))
    tl.store(c_ptr + r[:, None] * 32 + r[None, :], c)
    tl.atomic_add(count_ptr, 1)
