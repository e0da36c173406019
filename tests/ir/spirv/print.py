# RUN: tessera compile %s --entry show --signature "*i32:16" -D BLOCK=16 --target vulkan --arch sg8-32k --emit asm | FileCheck %s
# RUN: tessera compile %s --entry show --signature "*i32:16" -D BLOCK=16 --target vulkan -o %t.spv
# RUN: spirv-val --target-env vulkan1.2 %t.spv
# RUN: tessera compile %s --entry show --signature "*i32:16" -D BLOCK=16 --target opencl --emit asm | FileCheck %s --check-prefix=OPENCL
# RUN: tessera compile %s --entry show --signature "*i32:16" -D BLOCK=16 --target opencl -o %t.cl.spv
# RUN: spirv-val --target-env opencl2.2 %t.cl.spv
# Device print (Vulkan): a hidden push-constant member addresses the print
# buffer; each record is claimed by an atomic add on its cursor and written
# where it fits; the runtime formats records with the module's formats.
# The OpenCL flavour calls OpenCL.std's printf with the format as a constant
# string (one variable per distinct format), %lld spelled %ld (%2ld: an index padded
# to the digits of 15).
import tessera.language as tl


def show(x_ptr, BLOCK: tl.constexpr):
    tl.device_print("x: ", tl.load(x_ptr + tl.arange(0, BLOCK)))
# CHECK: OpMemberName %Arguments 1 "tessera_print_buffer"
# CHECK: OpModuleProcessed "tessera.print 1 pid (%d, %d, %d) idx (%2lld) x: %d
# CHECK-NOT: tessera.print 2
# CHECK: OpAtomicIAdd %uint {{%[0-9]+}} %uint_1 %uint_0 %uint_48
# CHECK: OpULessThanEqual
# CHECK: OpBranchConditional
# CHECK: OpStore {{%[0-9]+}} %uint_1 Aligned 4
# CHECK: OpStore {{%[0-9]+}} %uint_48 Aligned 4
# CHECK: OpStore {{%[0-9]+}} {{%[0-9]+}} Aligned 8
# OPENCL: [[SET:%[0-9]+]] = OpExtInstImport "OpenCL.std"
# OPENCL: [[STR:%[0-9]+]] = OpConstantComposite %_arr_uchar_uint_35 {{.*}} %uchar_37 %uchar_50 %uchar_108 %uchar_100 %uchar_41 {{.*}} %uchar_10 %uchar_0
# OPENCL: [[VAR:%[0-9]+]] = OpVariable %_ptr_UniformConstant__arr_uchar_uint_35 UniformConstant [[STR]]
# OPENCL-NOT: OpVariable %_ptr_UniformConstant
# OPENCL: [[FMT:%[0-9]+]] = OpBitcast %_ptr_UniformConstant_uchar [[VAR]]
# OPENCL-NEXT: OpExtInst %uint [[SET]] printf [[FMT]]
