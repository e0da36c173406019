// The AMDGPU target: tile IR -> thread IR (the shared GPU lowering) -> LLVM
// AMDGPU -> an HSA code object (v5) linked by lld.
#pragma once

#include "targets/Target.h"

namespace tessera::targets::amdgpu {

std::unique_ptr<Target> createAmdgpuTarget();

} // namespace tessera::targets::amdgpu
