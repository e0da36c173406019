# RUN: tessera compile %s --entry k --signature "*fp32:16,*fp32:16" -D BLOCK=256 --target cpu --emit llvm | FileCheck %s
# f32 exp is computed inline (a polynomial times 2^n, no call); other vector
# math goes to glibc's libmvec; the reduction ends in a shuffle tree.
# CHECK-NOT: expf
# CHECK: call <[[W:[0-9]+]] x float> @_ZGV{{[bde]}}N[[W]]v_logf
# CHECK: shufflevector
# CHECK-NOT: expf
import tessera.language as tl


def k(src, dst, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(src + offs)
    e = tl.exp(x) + tl.log(x)
    tl.store(dst + offs, e / tl.sum(e, axis=0))
