// Programs from SPIR-V IL, their kernels, argument setting and launches
// (private to runtime/opencl/).
//
// How the OpenCL flavour of the spirv target meets OpenCL:
// - Each kernel's LocalSize execution mode is its work-group size
//   (threads per program, 1, 1); a launch's global size is the grid times
//   it, so get_group_id is the program id.
// - SubgroupSize fixes the subgroup (warp) size; the module must have been
//   compiled for one the device runs (its arch, sg<N>-<KiB>k).
// - Pointer parameters are SVM addresses (clSetKernelArgSVMPointer); the
//   rest are values of the sizes the binary declares.
// - Kernels with tl.device_assert take one more, hidden, parameter: the
//   address of a 4-byte record zeroed before the launch and read after it
//   (the launch then waits); a failed assertion's number names its message.
// - tl.device_print is OpenCL's printf: the driver prints to the process's
//   standard output when the kernel completes.
#pragma once

#include "runtime/opencl/OpenclInternal.h"

#include <memory>
#include <string_view>

namespace tessera::runtime {

// Builds the SPIR-V module `binary` for `device`: LoadFailed with the
// driver's build log when it does not build; Unsupported when the device
// lacks what the module needs.
Status loadOpenclModule(ClDevice &device, std::string_view format, const void *binary, size_t size,
                        std::unique_ptr<Module> &out);

} // namespace tessera::runtime
