# RUN: tessera compile %s --entry add64 --signature "*i64,i64" --target level_zero --emit asm | FileCheck %s --check-prefix=OPENCL
# RUN: tessera compile %s --entry add64 --signature "*i64,i64" --target level_zero -o %t.spv
# RUN: not spirv-val --target-env opencl2.2 %t.spv 2>&1 | FileCheck %s --check-prefix=OPENCL22
# RUN: spirv-val --target-env spv1.2 %t.spv
# RUN: tessera compile %s --entry add64 --signature "*i64,i64" --target vulkan --emit asm | FileCheck %s --check-prefix=VULKAN
# 64-bit atomics in both flavours. OpenCL allows Int64Atomics with
# cl_khr_int64_base_atomics, which SPIRV-Tools' OpenCL 2.2 environment does
# not know: such modules are validated against SPIR-V 1.2's rules (and the
# Level Zero runtime checks the device's 64-bit atomics flag).
# OPENCL: OpCapability Int64Atomics
# OPENCL: OpMemoryModel Physical64 OpenCL
# OPENCL: OpAtomicIAdd %ulong
# OPENCL22: Capability Int64Atomics is not allowed by OpenCL 2.2
# VULKAN: OpCapability Int64Atomics
# VULKAN: OpAtomicIAdd %ulong
import tessera.language as tl


def add64(p, v):
    tl.atomic_add(p, v)
