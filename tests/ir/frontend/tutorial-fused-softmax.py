# RUN: tessera compile %s --entry softmax_kernel --signature "*fp32:16,*fp32:16,i32,i32,i32,i32" -D BLOCK_SIZE=1024 -D num_stages=4 | FileCheck %s
# RUN: tessera compile %s --entry softmax_kernel --signature "*fp32:16,*fp32:16,i32,i32,i32,i32" -D BLOCK_SIZE=1024 -D num_stages=4 --pipeline inline,canonicalize,cse,licm,dce | FileCheck %s --check-prefix=OPT
# Triton's fused-softmax tutorial (02-fused-softmax.py), imports changed only.
import tessera
import tessera.language as tl

# CHECK-LABEL: kernel @softmax_kernel(
# CHECK: %row_start = program_id {axis = 0} : i32
# CHECK: %row_step = num_programs {axis = 0} : i32
# CHECK: for %row_start, %n_rows, %row_step {num_stages = 4} {
# CHECK: ^bb(%row_idx: i32):
# CHECK: %row_start_ptr = addptr %input_ptr, %{{[0-9]+}} : ptr<f32>
# CHECK: %col_offsets = arange {end = 1024, start = 0} : tile<1024xi32>
# CHECK: %mask = cmp %col_offsets, %{{[0-9]+}} {pred = "lt"} : tile<1024xi1>
# CHECK: constant {value = -inf} : f32
# CHECK: %row = load %input_ptrs, %mask, %{{[0-9]+}} : tile<1024xf32>
# CHECK: reduce %row {axis = 0} : f32
# CHECK: max
# CHECK: %row_minus_max = sub %row, %{{[0-9]+}} : tile<1024xf32>
# CHECK: %numerator = exp %row_minus_max {approx = true} : tile<1024xf32>
# CHECK: %denominator = reduce %numerator {axis = 0} : f32
# CHECK: add
# CHECK: %softmax_output = div %numerator, %{{[0-9]+}} {approx = true} : tile<1024xf32>
# CHECK: store %output_ptrs, %softmax_output, %mask
# The row-independent work leaves the loop.
# OPT-LABEL: kernel @softmax_kernel(
# OPT: arange
# OPT: for
# OPT-NOT: arange
# OPT: yield


@tessera.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols, BLOCK_SIZE: tl.constexpr,
                   num_stages: tl.constexpr):
    # starting row of the program
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        # The stride represents how much we need to increase the pointer to advance 1 row
        row_start_ptr = input_ptr + row_idx * input_row_stride
        # The block size is the next power of two greater than n_cols, so we can fit each
        # row in a single block
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        # Load the row into SRAM, using a mask since BLOCK_SIZE may be > than n_cols
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        # Subtract maximum for numerical stability
        row_minus_max = row - tl.max(row, axis=0)
        # Note that exponentiation in Triton is fast but approximate (i.e., think __expf in CUDA)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        # Write back output to DRAM
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)
