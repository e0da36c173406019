# RUN: rm -rf %t && mkdir -p %t
# RUN: tessera compile %s --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32,fp16,i1" -D BLOCK=1024 --aot %t/add_aot --aot-target cpu --aot-target vulkan@sg32-48k | FileCheck %s --check-prefix=DONE
# RUN: FileCheck %s --check-prefix=HEADER < %t/add_aot.h
# RUN: FileCheck %s --check-prefix=SOURCE < %t/add_aot.c
# RUN: not tessera compile %s --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32,fp16,i1" -D BLOCK=1024 --aot %t/x --checked 2>&1 | FileCheck %s --check-prefix=CHECKED
# RUN: not tessera compile %s --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32,fp16,i1" -D BLOCK=1024 --aot %t/x --aot-target nosuch 2>&1 | FileCheck %s --check-prefix=UNKNOWN
# RUN: not tessera compile %s --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32,fp16,i1" -D BLOCK=1024 --aot /nonexistent/dir/x 2>&1 | FileCheck %s --check-prefix=NOWRITE
# `tessera compile --aot`: the binaries for each --aot-target embedded in a C
# source, a loader choosing by backend and architecture, and a launcher
# whose parameters are the kernel's in C types (f16 as its bits, i1 a byte).
import tessera.language as tl


def add(x_ptr, y_ptr, out_ptr, n, scale, flag, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    s = tl.where(flag, scale.to(tl.float32), 1.0)
    tl.store(out_ptr + offs, (tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask)) * s, mask=mask)
# DONE: wrote {{.*}}add_aot.h and {{.*}}add_aot.c: add for cpu (elf-shared-object); spirv:vulkan sg32-48k (spirv);
# HEADER: #include <tessera/tessera.h>
# HEADER: tessera_status add_load(tessera_device device, tessera_kernel *kernel);
# HEADER: tessera_status add_launch(tessera_kernel kernel, tessera_stream stream, uint32_t grid_x, uint32_t grid_y, uint32_t grid_z,
# HEADER-NEXT: void *x_ptr,
# HEADER-NEXT: void *y_ptr,
# HEADER-NEXT: void *out_ptr,
# HEADER-NEXT: int32_t n,
# HEADER-NEXT: uint16_t scale,
# HEADER-NEXT: uint8_t flag);
# SOURCE: static const unsigned char binary_0[{{[0-9]+}}] = {
# SOURCE-NEXT: 127, 69, 76, 70,
# SOURCE: static const unsigned char binary_1[{{[0-9]+}}] = {
# SOURCE-NEXT: 3, 2, 35, 7,
# SOURCE: {"host", "", "elf-shared-object", "tessera_kernel_add", binary_0, sizeof binary_0, 1, {{[0-9]+}}},
# SOURCE-NEXT: {"vulkan", "sg32-48k", "spirv", "add", binary_1, sizeof binary_1, 128, 0},
# SOURCE: tessera_kernel_load(device, binaries[i].format, binaries[i].data, binaries[i].size, binaries[i].entry, 6, kernel);
# SOURCE: void *args[6] = {&x_ptr, &y_ptr, &out_ptr, &n, &scale, &flag};
# CHECKED: tessera: --aot kernels cannot be compiled in checked mode
# UNKNOWN: tessera: unknown target 'nosuch'
# NOWRITE: tessera: --aot: cannot write '/nonexistent/dir/x.h'
