// NVIDIA's hooks into the shared GPU lowering (tensor-core dots and their
// operand loads): no LLVM, so tessera-opt registers them too.
#pragma once

namespace tessera::targets::nvptx {

// Installs the hooks for modules whose `target` is "nvptx" (idempotent).
void registerLowerings();

// Its parts: tensor-core dots and ldmatrix (MmaLowering.cpp), cp.async
// (AsyncCopy.cpp).
void registerMmaLowerings();
void registerAsyncCopyLowerings();

} // namespace tessera::targets::nvptx
