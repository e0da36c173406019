// NVIDIA's hooks into the shared GPU lowering (tensor-core dots and their
// operand loads): no LLVM, so tessera-opt registers them too.
#pragma once

namespace tessera::targets::nvptx {

// Installs the hooks for modules whose `target` is "nvptx" (idempotent).
void registerLowerings();

} // namespace tessera::targets::nvptx
