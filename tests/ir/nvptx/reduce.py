# RUN: tessera compile %s --entry row_max --signature "*fp32:16,*fp32:16,i32:16" -D BLOCK=4096 --target nvptx --emit asm | FileCheck %s
# A row reduction over 4 warps: in registers, then a butterfly of lane
# shuffles, then the warps' partials through shared memory: one barrier,
# between the stores and the loads (nothing used shared memory before);
# each lane loads one partial and two more shuffles combine the four.
# CHECK: ld.global.v4.b32
# CHECK: max.f32
# CHECK: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
# CHECK: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
# CHECK-NOT: bar.sync
# CHECK: st.shared.f32
# CHECK-NOT: shfl
# CHECK: bar.sync 0;
# CHECK-NEXT: ld.shared
# CHECK-NOT: ld.shared
# CHECK: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
# CHECK: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
# CHECK-NOT: ld.shared
# CHECK-NOT: bar.sync
import tessera.language as tl


def row_max(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n + cols, mask=cols < n, other=-float("inf"))
    tl.store(out_ptr + row, tl.max(x, axis=0))
