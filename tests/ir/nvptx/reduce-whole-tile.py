# RUN: tessera compile %s --entry tile_absmax --signature "*fp32:16,*fp32:16" -D N=512 -D BLOCK=256 --pipeline inline,assign-layouts | FileCheck %s --check-prefix=LAYOUT
# RUN: tessera compile %s --entry tile_absmax --signature "*fp32:16,*fp32:16" -D N=512 -D BLOCK=256 --target nvptx --emit asm | FileCheck %s
# A whole-tile reduction (tl.max(x) of a 2-D tile: a reshape to 1-D, then a
# reduction) keeps each thread's elements where they are: the reshape's
# result takes its operand's layout flattened, so the 256x256 fp32 tile that
# is used again after the reduction is never staged in shared memory (it
# took 256 KiB there, over sm_90's 227 KiB: torchao's blockwise fp8
# quantization kernels at block 256). Shared memory holds the warps'
# partials only.
# LAYOUT: %x = load {{.*}} : tile<256x256xf32, #blocked<size_per_thread = [1, 4], threads_per_warp = [1, 32], warps_per_cta = [2, 2], order = [1, 0]>>
# LAYOUT: reshape {{.*}} : tile<65536xf32, #linear<register = [1, 2, 512, 1024, 2048, 4096, 8192, 16384, 32768], lane = [4, 8, 16, 32, 64], warp = [128, 256]>>
# CHECK: st.shared.f32
# CHECK-NOT: st.shared
# CHECK: ld.shared.f32
# CHECK-NOT: ld.shared
import tessera.language as tl


def tile_absmax(x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.arange(0, BLOCK)
    cols = tl.arange(0, BLOCK)
    offs = rows[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs)
    amax = tl.max(tl.abs(x))
    tl.store(y_ptr + offs, x / amax)
