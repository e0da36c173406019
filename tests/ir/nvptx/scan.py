# RUN: tessera compile %s --entry cumsum --signature "*i32:16,*i32:16" -D BLOCK=4096 --target nvptx --emit asm | FileCheck %s
# RUN: tessera compile %s --entry cumsum --signature "*i32:16,*i32:16" -D BLOCK=4096 --target nvptx --num-warps 8 -o %t.cubin
# A scan by doubling over the axis bits: registers in the thread, lanes by
# shuffles, warps through shared memory; no serial walk along the line.
# CHECK: .entry cumsum(
# CHECK: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
# CHECK: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
# CHECK: bar.sync 0;
# CHECK: st.shared
# CHECK: bar.sync 0;
# CHECK: ld.shared
# CHECK: st.global.v4
import tessera.language as tl


def cumsum(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.cumsum(tl.load(x_ptr + offs), axis=0))
