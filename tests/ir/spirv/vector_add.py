# RUN: tessera compile %S/../nvptx/vector_add.py --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32:16" -D BLOCK=1024 --target vulkan --arch sg32-48k --emit asm | FileCheck %s
# RUN: tessera compile %S/../nvptx/vector_add.py --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32:16" -D BLOCK=1024 --target vulkan --arch sg8-32k --emit asm | FileCheck %s --check-prefix=SG8
# RUN: tessera compile %S/../nvptx/vector_add.py --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32:16" -D BLOCK=1024 --target vulkan -o %t.spv
# RUN: spirv-val --target-env vulkan1.2 %t.spv
# RUN: not tessera compile %S/../nvptx/vector_add.py --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32:16" -D BLOCK=1024 --target vulkan --arch gfx942 2>&1 | FileCheck %s --check-prefix=BADARCH
# RUN: tessera compile %S/../nvptx/vector_add.py --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32:16" -D BLOCK=1024 --target opencl --arch sg16-64k --emit asm | FileCheck %s --check-prefix=OPENCL
# RUN: tessera compile %S/../nvptx/vector_add.py --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32:16" -D BLOCK=1024 --target opencl -o %t.cl.spv
# RUN: spirv-val --target-env opencl2.2 %t.cl.spv
# RUN: tessera compile %S/../nvptx/vector_add.py --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32:16" -D BLOCK=1024 --target spirv --flavour vulkan --arch sg32-48k --emit asm | FileCheck %s
# RUN: tessera compile %S/../nvptx/vector_add.py --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32:16" -D BLOCK=1024 --target spirv --flavour opencl --arch sg16-64k --emit asm | FileCheck %s --check-prefix=OPENCL
# RUN: not tessera compile %S/../nvptx/vector_add.py --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32:16" -D BLOCK=1024 --target nvptx --flavour opencl 2>&1 | FileCheck %s --check-prefix=FLAVOUR-TARGET
# RUN: not tessera compile %S/../nvptx/vector_add.py --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32:16" -D BLOCK=1024 --target spirv --flavour metal 2>&1 | FileCheck %s --check-prefix=FLAVOUR-NAME
# FLAVOUR-TARGET: --flavour goes with --target spirv (found --target 'nvptx')
# FLAVOUR-NAME: --flavour is vulkan, opencl or level_zero, not 'metal'
# nvptx/vector_add.py's `add` as a Vulkan compute shader: arguments in one
# push-constant block (pointers are 64-bit buffer device addresses), 16-byte
# loads and stores through PhysicalStorageBuffer pointers, 4 subgroups of 32.
# CHECK: OpCapability Shader
# CHECK: OpCapability PhysicalStorageBufferAddresses
# CHECK: OpMemoryModel PhysicalStorageBuffer64 GLSL450
# CHECK: OpEntryPoint GLCompute %add "add" %arguments
# CHECK: OpExecutionMode %add LocalSize 128 1 1
# A hidden last member: the runtime's safe address for masked-off loads.
# CHECK: OpMemberName %Arguments 4 "tessera_safe_address"
# CHECK: OpModuleProcessed "tessera.subgroup_size 32"
# CHECK: OpDecorate %Arguments Block
# CHECK: OpMemberDecorate %Arguments 3 Offset 24
# CHECK: OpMemberDecorate %Arguments 4 Offset 32
# CHECK: OpDecorate %lane BuiltIn SubgroupLocalInvocationId
# CHECK: %Arguments = OpTypeStruct %ulong %ulong %ulong %uint %ulong
# Masked loads without branches: the address is the safe one where the mask
# is off, and the value is `other` there.
# CHECK: [[ADDR:%[0-9]+]] = OpSelect %ulong [[MASK:%[0-9]+]] {{%[0-9]+}} {{%[0-9]+}}
# CHECK-NEXT: [[P:%[0-9]+]] = OpConvertUToPtr %_ptr_PhysicalStorageBuffer_v4float [[ADDR]]
# CHECK-NEXT: [[V:%[0-9]+]] = OpLoad %v4float [[P]] Aligned 16
# CHECK-NOT: OpBranchConditional
# CHECK: OpSelect %float [[MASK]] {{%[0-9]+}} %float_0
# CHECK-NOT: OpBranchConditional
# CHECK: OpFAdd %float
# CHECK: OpStore {{.*}} Aligned 16
# Subgroups of 8 (lavapipe): 4 warps are 32 invocations.
# SG8: OpExecutionMode %add LocalSize 32 1 1
# SG8: OpModuleProcessed "tessera.subgroup_size 8"
# BADARCH: unsupported SPIR-V architecture 'gfx942' (expected sg<subgroup size>[-<shared memory KiB>k][-cm<cooperative matrices>], e.g. sg32-48k)
# The OpenCL flavour (Level Zero): a Kernel entry point whose arguments are
# parameters (pointers CrossWorkgroup, turned into addresses), Physical64,
# the subgroup size as an execution mode, SPIR-V 1.2.
# OPENCL: Version: 1.2
# OPENCL: OpCapability Kernel
# OPENCL: OpMemoryModel Physical64 OpenCL
# OPENCL: OpEntryPoint Kernel %add "add" %workgroup_id %num_workgroups %lane %warp
# OPENCL: OpExecutionMode %add LocalSize 64 1 1
# OPENCL: OpExecutionMode %add SubgroupSize 16
# OPENCL: %x_ptr = OpFunctionParameter %_ptr_CrossWorkgroup_uchar
# OPENCL: %n = OpFunctionParameter %uint
# OPENCL: OpConvertPtrToU %ulong %x_ptr
# OPENCL: OpConvertUToPtr %_ptr_CrossWorkgroup_v4float
# OPENCL: OpBranchConditional
# OPENCL: OpLoad %v4float {{.*}} Aligned 16
# OPENCL: OpStore {{.*}} Aligned 16
