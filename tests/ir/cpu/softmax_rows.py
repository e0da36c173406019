# RUN: tessera compile %s --entry softmax --signature "*fp32:16,*fp32:16,i32,i32,i32,i32" -D BLOCK=4096 --target cpu --emit llvm | FileCheck %s
# A row read by several passes (max, exp and sum, scale and store):
# - the row is loaded again by each pass instead of being copied to the stack
#   (the only stack buffer is exp's, which is not worth recomputing);
# - the max combines with one ordered compare and a select per chunk, with an
#   exact maxnum only when the result is -inf (an all-NaN row tells apart);
# - the chunk loops prefetch the row the next program or iteration reads;
# - the output streams in whole lines, also when it starts inside a line.
# CHECK: define void @tessera_kernel_softmax(
# CHECK-COUNT-1: alloca [4096 x float]
# CHECK-NOT: alloca [4096 x float]
# CHECK: fcmp ogt <[[W:[0-9]+]] x float>
# CHECK: select <[[W]] x i1>
# CHECK: llvm.maxnum
# CHECK: call void @llvm.prefetch.p0(
# CHECK: !nontemporal
import tessera.language as tl


def softmax(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols, BLOCK: tl.constexpr):
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0)):
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf"))
        z = x - tl.max(x, axis=0)
        num = tl.exp(z)
        y = num / tl.sum(num, axis=0)
        tl.store(out_ptr + row * out_stride + cols, y, mask=mask)
