# RUN: tessera compile %s --entry _seeded_dropout --signature "*fp32:16,*fp32:16,i32,fp32,i32" -D BLOCK_SIZE=1024 | FileCheck %s
# Triton's low-memory dropout tutorial (04-low-memory-dropout.py), imports changed only.
import tessera
import tessera.language as tl

# CHECK-LABEL: kernel @_seeded_dropout(%x_ptr: ptr<f32> {divisibility = 16}, %output_ptr: ptr<f32> {divisibility = 16}, %n_elements: i32, %p: f32, %seed: i32) {
# CHECK: %x = load %{{[0-9]+}}, %mask : tile<1024xf32>
# tl.rand is inlined: Philox, then the uniform float.
# CHECK-COUNT-20: mulhi
# CHECK: %random = mul %{{[0-9]+}}, %{{[0-9]+}} : tile<1024xf32>
# CHECK: %x_keep = cmp %random, %{{[0-9]+}} {pred = "gt"} : tile<1024xi1>
# CHECK: %{{[0-9]+}} = sub %{{[0-9]+}}, %p : f32
# CHECK: div %x, %{{[0-9]+}} {approx = true} : tile<1024xf32>
# CHECK: %output = select %x_keep, %{{[0-9]+}}, %{{[0-9]+}} : tile<1024xf32>
# CHECK: store %{{[0-9]+}}, %output, %mask
# CHECK-NOT: func @


@tessera.jit
def _seeded_dropout(
    x_ptr,
    output_ptr,
    n_elements,
    p,
    seed,
    BLOCK_SIZE: tl.constexpr,
):
    # compute memory offsets of elements handled by this instance
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    # load data from x
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    # randomly prune it
    random = tl.rand(seed, offsets)
    x_keep = random > p
    # write-back
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)
