# RUN: tessera compile %s --entry k --signature "*fp32:16,*fp32:16" -D BLOCK=256 --target cpu --emit llvm | FileCheck %s
# Vector math goes to glibc's libmvec; the reduction is a shuffle tree.
# CHECK: call <[[W:[0-9]+]] x float> @_ZGV{{[bde]}}N[[W]]v_expf
# CHECK: shufflevector
import tessera.language as tl


def k(src, dst, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(src + offs)
    e = tl.exp(x)
    tl.store(dst + offs, e / tl.sum(e, axis=0))
