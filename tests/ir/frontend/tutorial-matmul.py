# RUN: tessera compile %s --entry matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1" -D BLOCK_SIZE_M=128 -D BLOCK_SIZE_N=64 -D BLOCK_SIZE_K=32 -D GROUP_SIZE_M=8 -D ACTIVATION='"leaky_relu"' | FileCheck %s
# RUN: tessera compile %s --entry matmul_kernel --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1" -D BLOCK_SIZE_M=128 -D BLOCK_SIZE_N=64 -D BLOCK_SIZE_K=32 -D GROUP_SIZE_M=8 -D ACTIVATION='""' | FileCheck %s --check-prefix=NOACT
# Triton's matmul tutorial (03-matrix-multiplication.py) with grouped ordering
# and a fused leaky_relu, imports changed only.
import tessera
import tessera.language as tl

# CHECK-LABEL: kernel @matmul_kernel(%a_ptr: ptr<f16> {divisibility = 16}, %b_ptr: ptr<f16> {divisibility = 16}, %c_ptr: ptr<f16> {divisibility = 16}, %M: i32, %N: i32, %K: i32 {divisibility = 16}, %stride_am: i32 {divisibility = 16}, %stride_ak: i32 {equal_to_one = true}, %stride_bk: i32 {divisibility = 16}, %stride_bn: i32 {equal_to_one = true}, %stride_cm: i32 {divisibility = 16}, %stride_cn: i32 {equal_to_one = true}) {
# CHECK: %pid = program_id {axis = 0} : i32
# CHECK: %num_pid_m = div %{{[0-9]+}}, %{{[0-9]+}} : i32
# CHECK: %group_id = div %pid, %num_pid_in_group : i32
# CHECK: %group_size_m = min %{{[0-9]+}}, %{{[0-9]+}} : i32
# CHECK: %pid_m = add %first_pid_m, %{{[0-9]+}} : i32
# CHECK: %pid_n = div %{{[0-9]+}}, %group_size_m : i32
# CHECK: %offs_am = rem %{{[0-9]+}}, %{{[0-9]+}} : tile<128xi32>
# CHECK: %offs_bn = rem %{{[0-9]+}}, %{{[0-9]+}} : tile<64xi32>
# CHECK: %a_ptrs = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<128x32xptr<f16>>
# CHECK: %b_ptrs = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<32x64xptr<f16>>
# CHECK: %accumulator = splat %{{[0-9]+}} : tile<128x64xf32>
# CHECK: %a_ptrs_1, %accumulator_1, %b_ptrs_1 = for %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %a_ptrs, %accumulator, %b_ptrs : tile<128x32xptr<f16>>, tile<128x64xf32>, tile<32x64xptr<f16>> {
# CHECK: ^bb(%k: i32, %a_ptrs_2: tile<128x32xptr<f16>>, %accumulator_2: tile<128x64xf32>, %b_ptrs_2: tile<32x64xptr<f16>>):
# CHECK: %a = load %a_ptrs_2, %{{[0-9]+}}, %{{[0-9]+}} : tile<128x32xf16>
# CHECK: %b = load %b_ptrs_2, %{{[0-9]+}}, %{{[0-9]+}} : tile<32x64xf16>
# CHECK: %accumulator_3 = dot %a, %b, %accumulator_2 : tile<128x64xf32>
# CHECK: yield %a_ptrs_3, %accumulator_3, %b_ptrs_3
# The activation is a device function over the accumulator.
# CHECK: %accumulator_4 = call %accumulator_1 {callee = "leaky_relu"} : tile<128x64xf32>
# CHECK: %c = cast %accumulator_4 : tile<128x64xf16>
# CHECK: %c_mask = and %{{[0-9]+}}, %{{[0-9]+}} : tile<128x64xi1>
# CHECK: store %c_ptrs, %c, %c_mask
# CHECK-LABEL: func @leaky_relu(%x: tile<128x64xf32>) -> (tile<128x64xf32>) {
# CHECK: cmp %x, %{{[0-9]+}} {pred = "ge"} : tile<128x64xi1>
# CHECK: select
# NOACT-LABEL: kernel @matmul_kernel(
# NOACT-NOT: call
# NOACT: %c = cast %accumulator_1 : tile<128x64xf16>
# NOACT-NOT: func @leaky_relu


@tessera.jit
def matmul_kernel(
        # Pointers to matrices
        a_ptr, b_ptr, c_ptr,
        # Matrix dimensions
        M, N, K,
        # The stride variables represent how much to increase the ptr by when moving by 1
        # element in a particular dimension. E.g. `stride_am` is how much to increase `a_ptr`
        # by to get the element one row down (A has M rows).
        stride_am, stride_ak,  #
        stride_bk, stride_bn,  #
        stride_cm, stride_cn,
        # Meta-parameters
        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,  #
        GROUP_SIZE_M: tl.constexpr,  #
        ACTIVATION: tl.constexpr  #
):
    """Kernel for computing the matmul C = A x B.
    A has shape (M, K), B has shape (K, N) and C has shape (M, N)
    """
    # -----------------------------------------------------------
    # Map program ids `pid` to the block of C it should compute.
    # This is done in a grouped ordering to promote L2 data reuse.
    # See above `L2 Cache Optimizations` section for details.
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    # -----------------------------------------------------------
    # Add some integer bound assumptions.
    # This helps to guide integer analysis in the backend to optimize
    # load/store offset address calculation
    tl.assume(pid_m >= 0)
    tl.assume(pid_n >= 0)
    tl.assume(stride_am > 0)
    tl.assume(stride_ak > 0)
    tl.assume(stride_bn > 0)
    tl.assume(stride_bk > 0)
    tl.assume(stride_cm > 0)
    tl.assume(stride_cn > 0)

    # ----------------------------------------------------------
    # Create pointers for the first blocks of A and B.
    # We will advance this pointer as we move in the K direction
    # and accumulate
    # `a_ptrs` is a block of [BLOCK_SIZE_M, BLOCK_SIZE_K] pointers
    # `b_ptrs` is a block of [BLOCK_SIZE_K, BLOCK_SIZE_N] pointers
    # See above `Pointer Arithmetic` section for details
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    # -----------------------------------------------------------
    # Iterate to compute a block of the C matrix.
    # We accumulate into a `[BLOCK_SIZE_M, BLOCK_SIZE_N]` block
    # of fp32 values for higher accuracy.
    # `accumulator` will be converted back to fp16 after the loop.
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        # Load the next block of A and B, generate a mask by checking the K dimension.
        # If it is out of bounds, set it to 0.
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        # We accumulate along the K dimension.
        accumulator = tl.dot(a, b, accumulator)
        # Advance the ptrs to the next K block.
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    # You can fuse arbitrary activation functions here
    # while the accumulator is still in FP32!
    if ACTIVATION == "leaky_relu":
        accumulator = leaky_relu(accumulator)
    c = accumulator.to(tl.float16)

    # -----------------------------------------------------------
    # Write back the block of the output matrix C with masks.
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


# We can fuse `leaky_relu` by providing it as an `ACTIVATION` meta-parameter in `matmul_kernel`.
@tessera.jit
def leaky_relu(x):
    return tl.where(x >= 0, x, 0.01 * x)
