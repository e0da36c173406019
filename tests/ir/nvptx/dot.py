# RUN: tessera compile %s --entry mm --signature "*fp16:16,*fp16:16,*fp32:16" -D BM=32 -D BN=32 -D BK=16 --target nvptx --emit asm | FileCheck %s
# RUN: tessera compile %s --entry mm --signature "*fp16:16,*fp16:16,*fp32:16" -D BM=32 -D BN=32 -D BK=16 --target nvptx --arch sm_80 --emit asm | FileCheck %s --check-prefix=SM80
# dot on tensor cores: each operand goes to shared memory with 16-byte
# stores, comes back with ldmatrix (b, whose contiguous dimension is n, with
# .trans), and feeds mma.sync; 4 warps tile the 32x32 result 2 x 2, so each
# issues two m16n8k16 instructions. ptxas assembles it for both targets.
# CHECK: st.shared.v4.b32
# CHECK: bar.sync 0;
# CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# CHECK-COUNT-2: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
# CHECK-NOT: mma.sync
# CHECK-NOT: fma.rn.f32
# SM80: .target sm_80
# SM80: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
import tessera.language as tl


def mm(a, b, c, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    x = tl.load(a + rm[:, None] * BK + rk[None, :])
    y = tl.load(b + rk[:, None] * BN + rn[None, :])
    tl.store(c + rm[:, None] * BN + rn[None, :], tl.dot(x, y))
