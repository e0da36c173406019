# RUN: tessera compile %s --entry fold --signature "*i32,*i32,i32,i32,i32" -D UNROLL=3 --target cpu --dump-ir-after-each 2>&1 >/dev/null | FileCheck %s
# RUN: tessera compile %s --entry fold --signature "*i32,*i32,i32,i32,i32" -D UNROLL=3 --target vulkan --arch sg32-48k --emit asm | FileCheck %s --check-prefix=SPIRV
# RUN: tessera compile %s --entry fold --signature "*i32,*i32,i32,i32,i32" -D UNROLL=3 --target vulkan --arch sg32-48k -o %t.spv && spirv-val --target-env vulkan1.2 %t.spv
#
# tl.range's loop_unroll_factor on the targets that unroll at the tile
# level (the unroll-loops pass, last of the cpu target's tile passes and
# after pipeline-loops on spirv): a loop of three copies of the body over
# the whole groups of three iterations, then the loop for the rest.
# CHECK: IR after unroll-loops -----
# CHECK: for %lb, %[[SPLIT:[0-9]+]], %{{[0-9]+}}, %{{[0-9]+}} : i32 {
# CHECK-COUNT-3: load
# CHECK-NOT: load
# CHECK: yield
# CHECK: for %[[SPLIT]], %ub, %step,
# CHECK: load
# CHECK-NOT: load
# CHECK: yield
# CHECK: store %out_ptr
# SPIRV: OpLoopMerge
# SPIRV-COUNT-3: OpLoad %uint {{%[0-9]+}} Aligned 4
# SPIRV-NOT: OpLoad
# SPIRV: OpLoopMerge
# SPIRV: OpLoad %uint {{%[0-9]+}} Aligned 4
# SPIRV-NOT: OpLoad
# SPIRV: OpReturn
import tessera.language as tl


def fold(x_ptr, out_ptr, lb, ub, step, UNROLL: tl.constexpr):
    h = 7
    for i in tl.range(lb, ub, step, loop_unroll_factor=UNROLL):
        h = (h * 31 + tl.load(x_ptr + i)) % 1000003
    tl.store(out_ptr, h)
