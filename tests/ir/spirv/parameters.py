# RUN: tessera compile %s --entry many --signature "*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i8,i32" --target vulkan --arch sg32-48k --emit asm | FileCheck %s
# RUN: tessera compile %s --entry many --signature "*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i8,i32" --target vulkan -o %t.spv
# RUN: spirv-val --target-env vulkan1.2 %t.spv
# 16 pointers, an i8 and an i32 (133 bytes) do not fit 128 bytes of push
# constants: the arguments go to a parameter buffer whose address is the
# first push constant, and the module states their layout for the runtime.
import tessera.language as tl


def many(p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, small, n):
    tl.store(p0 + n, tl.load(p15).to(tl.float32) + small.to(tl.float32))
# CHECK: OpMemberName %Arguments 0 "tessera_parameters"
# CHECK: OpModuleProcessed "tessera.parameters 136 0:8 8:8 16:8 24:8 32:8 40:8 48:8 56:8 64:8 72:8 80:8 88:8 96:8 104:8 112:8 120:8 128:1 132:4"
# CHECK: %Arguments = OpTypeStruct %ulong
# CHECK: [[BASE:%[0-9]+]] = OpLoad %ulong
# CHECK: [[AT:%[0-9]+]] = OpIAdd %ulong [[BASE]] %ulong_120
# CHECK-NEXT: [[P:%[0-9]+]] = OpConvertUToPtr %_ptr_PhysicalStorageBuffer_ulong [[AT]]
# CHECK-NEXT: OpLoad %ulong [[P]] Aligned 8
# CHECK: OpConvertUToPtr %_ptr_PhysicalStorageBuffer_uchar
# CHECK: OpLoad %uchar {{%[0-9]+}} Aligned 1
