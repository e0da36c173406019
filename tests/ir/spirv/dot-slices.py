# RUN: tessera compile %s --entry mm --signature "*fp32:16,*fp32:16,*fp32:16" -D M=64 -D N=16 -D K=128 --target vulkan --arch sg8-32k --emit asm | FileCheck %s
# RUN: tessera compile %s --entry mm --signature "*fp32:16,*fp32:16,*fp32:16" -D M=64 -D N=16 -D K=128 --target vulkan --arch sg8-32k -o %t.spv && spirv-val --target-env vulkan1.2 %t.spv
# RUN: tessera compile %s --entry mm --signature "*fp32:16,*fp32:16,*fp32:16" -D M=64 -D N=16 -D K=128 --target vulkan --arch sg32-48k --emit asm | FileCheck %s --check-prefix=WHOLE
# A dot on the SIMT lanes whose operands (32 + 8 KiB in f32) exceed the
# device's shared memory (lavapipe's 32 KiB) goes through it in two slices
# of k: 20 KiB of workgroup memory (plus a spare slot each), two k loops.
# With 48 KiB both operands go in whole: one loop.
# CHECK: %shared = OpVariable %_ptr_Workgroup__arr_uint_uint_5125 Workgroup
# CHECK: OpLoopMerge
# CHECK: OpLoopMerge
# CHECK-NOT: OpLoopMerge
# WHOLE: %shared = OpVariable %_ptr_Workgroup__arr_uint_uint_10240 Workgroup
# WHOLE: OpLoopMerge
# WHOLE-NOT: OpLoopMerge
import tessera.language as tl


def mm(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], tl.dot(a, b, input_precision="ieee"))
