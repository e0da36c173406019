# RUN: tessera compile %s --entry mm --signature "*fp16:16,*fp16:16,*fp32:16" -D BM=32 -D BN=32 -D BK=16 --target nvptx --emit asm | FileCheck %s
# RUN: tessera compile %s --entry mm --signature "*fp16:16,*fp16:16,*fp32:16" -D BM=32 -D BN=32 -D BK=16 --target nvptx --arch sm_80 --emit asm | FileCheck %s --check-prefix=SM80
# dot on CUDA cores: operands through shared memory, f32 accumulation by fma.
# CHECK: st.shared
# CHECK: bar.sync 0;
# CHECK: ld.shared

# CHECK: fma.rn.f32
# SM80: .target sm_80
import tessera.language as tl


def mm(a, b, c, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    x = tl.load(a + rm[:, None] * BK + rk[None, :])
    y = tl.load(b + rk[:, None] * BN + rn[None, :])
    tl.store(c + rm[:, None] * BN + rn[None, :], tl.dot(x, y))
