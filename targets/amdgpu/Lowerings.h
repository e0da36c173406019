// AMD's hooks into the shared GPU lowering (matrix-core dots): no LLVM, so
// tessera-opt registers them too.
#pragma once

namespace tessera::targets::amdgpu {

// Installs the hooks for modules whose `target` is "amdgpu" (idempotent).
void registerLowerings();

} // namespace tessera::targets::amdgpu
