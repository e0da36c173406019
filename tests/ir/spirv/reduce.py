# RUN: tessera compile %s --entry row_sum --signature "*fp32:16,*fp32:16,i32:16" -D BLOCK=1024 --target vulkan --arch sg32-48k --emit asm | FileCheck %s
# RUN: tessera compile %s --entry row_sum --signature "*fp32:16,*fp32:16,i32:16" -D BLOCK=1024 --target opencl --arch sg16-64k --emit asm | FileCheck %s --check-prefix=OPENCL
# A row reduction over 4 subgroups: registers, then a butterfly of subgroup
# shuffles (masks 1..16), then the subgroups' partials through the
# Workgroup word array, with one barrier between the stores and the loads.
# CHECK: OpCapability GroupNonUniformShuffle
# CHECK: %shared = OpVariable %_ptr_Workgroup_{{.*}} Workgroup
# CHECK: OpLoad %v4float
# CHECK: OpGroupNonUniformShuffleXor %uint %uint_3 {{.*}} %uint_1
# CHECK: OpGroupNonUniformShuffleXor %uint %uint_3 {{.*}} %uint_16
# CHECK-NOT: OpControlBarrier
# CHECK: OpAccessChain %_ptr_Workgroup_uint %shared
# CHECK: OpStore
# CHECK: OpControlBarrier %uint_2 %uint_2 %uint_264
# CHECK-NOT: OpControlBarrier
# CHECK: OpFunctionEnd
# OpenCL: subgroups of 16 shuffle with SPV_INTEL_subgroups (masks 1..8).
# OPENCL: OpCapability SubgroupShuffleINTEL
# OPENCL: OpExtension "SPV_INTEL_subgroups"
# OPENCL: %shared = OpVariable %_ptr_Workgroup_{{.*}} Workgroup
# OPENCL: OpSubgroupShuffleXorINTEL %uint {{.*}} %uint_1
# OPENCL: OpSubgroupShuffleXorINTEL %uint {{.*}} %uint_8
# OPENCL-NOT: OpSubgroupShuffleXorINTEL %uint {{.*}} %uint_16
# OPENCL: OpControlBarrier %uint_2 %uint_2 %uint_264
import tessera.language as tl


def row_sum(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(x, axis=0))
