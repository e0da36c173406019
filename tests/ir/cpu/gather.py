# RUN: tessera compile %s --entry strided --signature "*fp32:16,*fp32:16,i32" -D BLOCK=64 --target cpu --emit llvm | FileCheck %s
# A runtime stride is not provably 1: the load is a gather, the store contiguous.
# CHECK: @llvm.masked.gather
# CHECK-NOT: @llvm.masked.scatter
# CHECK: store <{{[0-9]+}} x float>
import tessera.language as tl


def strided(src, dst, stride, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(src + offs * stride)
    tl.store(dst + offs, v)
