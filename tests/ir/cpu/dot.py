# RUN: tessera compile %s --entry mm --signature "*fp32:16,*fp32:16,*fp32:16" -D BM=32 -D BN=32 -D BK=16 --target cpu --emit llvm | FileCheck %s
# The dot micro-kernel: broadcast A, fma against rows of B, accumulators in registers.
# CHECK: call <{{[0-9]+}} x float> @llvm.fma.v{{[0-9]+}}f32
import tessera.language as tl


def mm(a, b, c, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    x = tl.load(a + rm[:, None] * BK + rk[None, :])
    y = tl.load(b + rk[:, None] * BN + rn[None, :])
    tl.store(c + rm[:, None] * BN + rn[None, :], tl.dot(x, y, input_precision="ieee"))
