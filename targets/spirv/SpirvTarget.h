// The SPIR-V target: tile IR -> thread IR (the shared GPU lowering) ->
// SPIR-V by Tessera's own emitter (targets/spirv/Emitter.h), validated by
// SPIRV-Tools. Flavours: "vulkan" (compute shaders) and "opencl" (kernels
// for OpenCL runtimes); "level_zero" is the OpenCL flavour for Level Zero.
#pragma once

#include "targets/Target.h"

#include <string_view>

namespace tessera::targets::spirv {

std::unique_ptr<Target> createSpirvTarget(std::string_view flavour);

} // namespace tessera::targets::spirv
