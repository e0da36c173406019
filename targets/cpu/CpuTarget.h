// The host CPU target: tile IR -> LLVM IR -> object -> shared object (lld).
#pragma once

#include "targets/Target.h"

namespace tessera::targets::cpu {

std::unique_ptr<Target> createCpuTarget();

} // namespace tessera::targets::cpu
