// The NVIDIA target: distributed tile IR -> LLVM NVPTX -> PTX -> cubin
// (ptxas when present, else the driver's JIT loads the PTX).
#pragma once

#include "targets/Target.h"

namespace tessera::targets::nvptx {

std::unique_ptr<Target> createNvptxTarget();

} // namespace tessera::targets::nvptx
