# The target registry as `tessera targets` prints it: one row per target.
# RUN: tessera targets | FileCheck %s
# CHECK: cpu LLVM x86-64 -> shared object (lld): in this build
# CHECK-NEXT: names: cpu, host
# CHECK-NEXT: runs on: host (PyTorch 'cpu', DLPack device types 1)
# CHECK-NEXT: formats: elf-shared-object
# CHECK: nvptx LLVM NVPTX -> PTX -> ptxas or driver JIT: in this build
# CHECK-NEXT: names: nvptx, cuda
# CHECK-NEXT: runs on: cuda (PyTorch 'cuda' where torch.version.cuda is set, DLPack device types 2, 13)
# CHECK-NEXT: formats: cubin, ptx
# CHECK: amdgpu LLVM AMDGPU -> HSA code object (lld): in this build
# CHECK-NEXT: names: amdgpu, hip
# CHECK-NEXT: runs on: hip (PyTorch 'cuda' where torch.version.hip is set, DLPack device types 10)
# CHECK-NEXT: formats: hsaco
# CHECK: spirv Tessera's SPIR-V emitter (Vulkan and OpenCL flavours; Level Zero runs the OpenCL one): in this build
# CHECK-NEXT: names: spirv, vulkan (flavour vulkan), opencl (flavour opencl), level_zero (flavour level_zero)
# CHECK-NEXT: flavour vulkan runs on: vulkan (DLPack device types 7)
# CHECK-NEXT: flavour opencl runs on: opencl (DLPack device types 4)
# CHECK-NEXT: flavour level_zero runs on: level_zero (PyTorch 'xpu', DLPack device types 14)
# CHECK-NEXT: formats: spirv
