# RUN: tessera compile %s --entry take --signature "*fp32:16,*i32:16,*fp32:16" --target nvptx --emit asm | FileCheck %s
# tl.gather: the source goes to shared memory, one barrier, then each thread
# reads the elements its indices name, an index outside the axis giving 0.
# The code grows with the tile, not with source x index (Triton's one-hot
# form would compare every index against all 128 rows).
# CHECK: ld.global.v4.f32
# CHECK: st.shared.v4.f32
# CHECK: bar.sync 0;
# CHECK-COUNT-8: ld.shared.f32
# CHECK-NOT: bar.sync
# CHECK: st.global.v4.f32
import tessera.language as tl


def take(src_ptr, idx_ptr, out_ptr):
    src = tl.load(src_ptr + tl.arange(0, 128)[:, None] * 64 + tl.arange(0, 64)[None, :])
    at = tl.arange(0, 16)[:, None] * 64 + tl.arange(0, 64)[None, :]
    tl.store(out_ptr + at, tl.gather(src, tl.load(idx_ptr + at), 0))
