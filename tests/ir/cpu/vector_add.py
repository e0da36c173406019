# RUN: tessera compile %s --entry add_kernel --signature "*fp32:16,*fp32:16,*fp32:16,i32" -D BLOCK_SIZE=1024 --target cpu --emit llvm | FileCheck %s
# Contiguous pointers become vector loads and stores fused into one loop
# (with a staged copy only when the output overlaps an input at an offset);
# the program loop calls nothing.
# CHECK: define void @tessera_kernel_add_kernel(ptr {{.*}}, i32 {{.*}}, i32 {{.*}}, i32 {{.*}}, i64 {{.*}}, i64 {{.*}})
# CHECK-NOT: call void @tessera_kernel_add_kernel.program
# CHECK: call <[[W:[0-9]+]] x float> @llvm.masked.load.v[[W]]f32.p0
# CHECK: fadd <[[W]] x float>
# CHECK: call void @llvm.masked.store.v[[W]]f32.p0
# CHECK-NOT: gather
import tessera.language as tl


def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)
