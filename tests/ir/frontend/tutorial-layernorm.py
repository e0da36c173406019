# RUN: tessera compile %s --entry _layer_norm_fwd_fused --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32,i32,fp32" -D BLOCK_SIZE=1024 | FileCheck %s
# Triton's layer-norm tutorial (05-layer-norm.py), forward kernel, imports changed only.
import tessera
import tessera.language as tl

# CHECK-LABEL: kernel @_layer_norm_fwd_fused(%X: ptr<f16> {divisibility = 16}, %Y: ptr<f16> {divisibility = 16}, %W: ptr<f16> {divisibility = 16}, %B: ptr<f16> {divisibility = 16}, %Mean: ptr<f32> {divisibility = 16}, %Rstd: ptr<f32> {divisibility = 16}, %stride: i32, %N: i32, %eps: f32) {
# CHECK: %row = program_id {axis = 0} : i32
# CHECK: %Y_1 = addptr %Y, %{{[0-9]+}} : ptr<f16>
# CHECK: %X_1 = addptr %X, %{{[0-9]+}} : ptr<f16>
# The mean: a loop carrying a fp32 tile, the loaded fp16 data cast up.
# CHECK: %_mean = splat %{{[0-9]+}} : tile<1024xf32>
# CHECK: %_mean_1 = for %{{[0-9]+}}, %N, %{{[0-9]+}}, %_mean : tile<1024xf32> {
# CHECK: load %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : tile<1024xf16>
# CHECK: %a = cast %{{[0-9]+}} : tile<1024xf32>
# CHECK: %_mean_3 = add %_mean_2, %a : tile<1024xf32>
# CHECK: %mean = div %{{[0-9]+}}, %{{[0-9]+}} {approx = true} : f32
# CHECK: %_var_1 = for %{{[0-9]+}}, %N, %{{[0-9]+}}, %_var : tile<1024xf32> {
# CHECK: %x_1 = select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : tile<1024xf32>
# CHECK: %var = div %{{[0-9]+}}, %{{[0-9]+}} {approx = true} : f32
# CHECK: sqrt %{{[0-9]+}} {approx = true} : f32
# CHECK: %rstd = div %{{[0-9]+}}, %{{[0-9]+}} {approx = true} : f32
# CHECK: store %{{[0-9]+}}, %mean
# CHECK: store %{{[0-9]+}}, %rstd
# The normalization loop stores fp16.
# CHECK: for %{{[0-9]+}}, %N, %{{[0-9]+}} {
# CHECK: %w = load %{{[0-9]+}}, %mask : tile<1024xf16>
# CHECK: %x_hat = mul %{{[0-9]+}}, %{{[0-9]+}} : tile<1024xf32>
# CHECK: %y = add %{{[0-9]+}}, %{{[0-9]+}} : tile<1024xf32>
# CHECK: %{{[0-9]+}} = cast %y : tile<1024xf16>
# CHECK: store %{{[0-9]+}}, %{{[0-9]+}}, %mask


@tessera.jit
def _layer_norm_fwd_fused(
    X,  # pointer to the input
    Y,  # pointer to the output
    W,  # pointer to the weights
    B,  # pointer to the biases
    Mean,  # pointer to the mean
    Rstd,  # pointer to the 1/std
    stride,  # how much to increase the pointer when moving by 1 row
    N,  # number of columns in X
    eps,  # epsilon to avoid division by zero
    BLOCK_SIZE: tl.constexpr,
):
    # Map the program id to the row of X and Y it should compute.
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    # Compute mean
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    # Compute variance
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    # Write mean / rstd
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    # Normalize and apply linear transformation
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        # Write output
        tl.store(Y + cols, y, mask=mask)
