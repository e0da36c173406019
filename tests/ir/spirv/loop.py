# RUN: tessera compile %s --entry running_sum --signature "*fp32:16,*fp32:16,i32:16" -D BLOCK=512 --target vulkan --arch sg32-48k --emit asm | FileCheck %s
# RUN: tessera compile %s --entry running_sum --signature "*fp32:16,*fp32:16,i32:16" -D BLOCK=512 --target opencl --arch sg32-64k --emit asm | FileCheck %s
# A loop carrying a tile: the loop header holds one phi for the induction
# variable and one per register of the tile (4 per thread), then
# OpLoopMerge before the test; the body branches to the continue block,
# which steps the induction variable and goes back to the header (the
# same structured form in both flavours).
# CHECK: OpBranch [[HEADER:%[0-9]+]]
# CHECK-NEXT: [[HEADER]] = OpLabel
# CHECK-NEXT: [[IV:%[0-9]+]] = OpPhi %uint %uint_0
# CHECK-NEXT: OpPhi %float %float_0
# CHECK-NEXT: OpPhi %float %float_0
# CHECK-NEXT: OpPhi %float %float_0
# CHECK-NEXT: OpPhi %float %float_0
# CHECK-NEXT: [[TEST:%[0-9]+]] = OpSLessThan %bool [[IV]]
# CHECK-NEXT: OpLoopMerge [[EXIT:%[0-9]+]] [[CONT:%[0-9]+]] None
# CHECK-NEXT: OpBranchConditional [[TEST]] {{%[0-9]+}} [[EXIT]]
# CHECK: OpFAdd %float
# CHECK: OpBranch [[CONT]]
# CHECK-NEXT: [[CONT]] = OpLabel
# CHECK-NEXT: OpIAdd %uint [[IV]]
# CHECK-NEXT: OpBranch [[HEADER]]
# CHECK-NEXT: [[EXIT]] = OpLabel
import tessera.language as tl


def running_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        acc += tl.load(x_ptr + start + offs, mask=start + offs < n, other=0.0)
    tl.store(out_ptr + offs, acc)
