# REQUIRES: ptxas
# RUN: tessera compile %s --entry mm --signature "*bf16:16,*bf16:16,*bf16:16,i32:16,i32:16,i32:16" -D BM=256 -D BN=128 -D BK=64 --num-warps 8 --target nvptx --arch sm_90a --emit asm > %t.mm.ptx
# RUN: ptxas -arch=sm_90a %t.mm.ptx -o %t.mm.cubin 2>&1 | FileCheck %s --allow-empty
# RUN: FileCheck %s --check-prefix=DRAIN < %t.mm.ptx
# RUN: tessera compile %s --entry attn --signature "*bf16:16,*bf16:16,*bf16:16,*bf16:16,i32" -D BM=128 -D BN=64 -D D=128 --num-warps 8 --target nvptx --arch sm_90a --emit asm > %t.attn.ptx
# RUN: ptxas -arch=sm_90a %t.attn.ptx -o %t.attn.cubin 2>&1 | FileCheck %s --allow-empty
# ptxas serializes every wgmma of a kernel (info C7515, "Potential
# Performance Loss") where something other than a wgmma may write a
# wgmma's accumulator registers while it is in flight. Both loops below
# leave their last wgmma group in flight at the exit, and their trip counts
# are unknown: the drain after the loop was also reached by the path that
# skips the loop, which set the accumulator registers (to their initial
# zeros) on its way. Such kernels ran with the 8-warp configurations of the
# bench (256x128 matmul, attention at BLOCK_M 128).
# CHECK-NOT: C7515
# CHECK-NOT: Performance Loss
# The drain waits on each path: the loop's exit (after its last group) and
# the path that skips it.
# DRAIN: wgmma.wait_group.sync.aligned 1;
# DRAIN: wgmma.wait_group.sync.aligned 0;
# DRAIN: wgmma.wait_group.sync.aligned 0;
# DRAIN-NOT: wgmma.wait_group
import tessera.language as tl


def mm(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        ka = k * BK + rk
        x = tl.load(a + rm[:, None] * K + ka[None, :], mask=(rm[:, None] < M) & (ka[None, :] < K), other=0.0)
        y = tl.load(b + ka[:, None] * N + rn[None, :], mask=(ka[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(x, y, acc)
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.bfloat16), mask=(rm[:, None] < M) & (rn[None, :] < N))


def attn(q_ptr, k_ptr, v_ptr, o_ptr, seq, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    keys = tl.arange(0, BN)
    dims = tl.arange(0, D)
    q = tl.load(q_ptr + rows[:, None] * D + dims[None, :], mask=rows[:, None] < seq, other=0.0)
    row_max = tl.full((BM,), -float("inf"), tl.float32)
    row_sum = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for start in range(0, seq, BN):
        cols = start + keys
        kt = tl.load(k_ptr + cols[None, :] * D + dims[:, None], mask=cols[None, :] < seq, other=0.0)
        s = tl.where(cols[None, :] < seq, tl.dot(q, kt), -float("inf"))
        new_max = tl.maximum(row_max, tl.max(s, axis=1))
        p = tl.exp2(s - new_max[:, None])
        rescale = tl.exp2(row_max - new_max)
        row_sum = row_sum * rescale + tl.sum(p, axis=1)
        v = tl.load(v_ptr + cols[:, None] * D + dims[None, :], mask=cols[:, None] < seq, other=0.0)
        acc = acc * rescale[:, None] + tl.dot(p.to(v.dtype), v)
        row_max = new_max
    tl.store(o_ptr + rows[:, None] * D + dims[None, :], (acc / row_sum[:, None]).to(tl.bfloat16), mask=rows[:, None] < seq)
