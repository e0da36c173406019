# REQUIRES: avx512
# RUN: tessera compile %s --entry scale --signature "*fp32:16,*fp32,i32" -D BLOCK=2048 --target cpu --emit llvm | FileCheck %s
# An output that may start inside a cache line still streams: each line is
# two chunks joined by one permute and stored non-temporally; the partial
# lines at either end are stored lane by lane (no masked store next to the
# streaming ones). A single pass over the input prefetches nothing: the
# hardware follows streams.
# CHECK: define void @tessera_kernel_scale(
# CHECK-NOT: llvm.prefetch
# CHECK: call <16 x i32> @llvm.x86.avx512.vpermi2var.d.512(
# CHECK: store <16 x i32> {{.*}}, align 64, !nontemporal
import tessera.language as tl


def scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)
