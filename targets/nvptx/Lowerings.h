// NVIDIA's hooks into the shared GPU lowering (tensor-core dots and their
// operand loads): no LLVM, so tessera-opt registers them too.
#pragma once

namespace tessera::targets::nvptx {

// Installs the hooks for modules whose `target` is "nvptx" (idempotent).
void registerLowerings();

// Its parts: tensor-core dots and ldmatrix (MmaLowering.cpp), cp.async
// (AsyncCopy.cpp), tensor maps and mbarriers (Tma.cpp).
void registerMmaLowerings();
void registerAsyncCopyLowerings();
void registerTmaLowerings();

} // namespace tessera::targets::nvptx
