# RUN: tessera compile %s --entry show --signature "*i32:16" -D BLOCK=16 --target vulkan --arch sg8-32k --emit asm | FileCheck %s
# RUN: tessera compile %s --entry show --signature "*i32:16" -D BLOCK=16 --target vulkan -o %t.spv
# RUN: spirv-val --target-env vulkan1.2 %t.spv
# RUN: not tessera compile %s --entry show --signature "*i32:16" -D BLOCK=16 --target opencl 2>&1 | FileCheck %s --check-prefix=OPENCL
# Device print (Vulkan): a hidden push-constant member addresses the print
# buffer; each record is claimed by an atomic add on its cursor and written
# where it fits; the runtime formats records with the module's formats.
import tessera.language as tl


def show(x_ptr, BLOCK: tl.constexpr):
    tl.device_print("x: ", tl.load(x_ptr + tl.arange(0, BLOCK)))
# CHECK: OpMemberName %Arguments 1 "tessera_print_buffer"
# CHECK: OpModuleProcessed "tessera.print 1 pid (%d, %d, %d) idx (%lld) x: %d
# CHECK-NOT: tessera.print 2
# CHECK: OpAtomicIAdd %uint {{%[0-9]+}} %uint_1 %uint_0 %uint_48
# CHECK: OpULessThanEqual
# CHECK: OpBranchConditional
# CHECK: OpStore {{%[0-9]+}} %uint_1 Aligned 4
# CHECK: OpStore {{%[0-9]+}} %uint_48 Aligned 4
# CHECK: OpStore {{%[0-9]+}} {{%[0-9]+}} Aligned 8
# OPENCL: print.py:12:5: error: spirv target: 'printf' (device print) is not supported on the spirv target yet in the OpenCL flavour
