// The stack frames of a CPU kernel's functions, read from the object file:
// where a program's tiles live on the host (its "shared memory" for
// Triton's occupancy arithmetic).
#pragma once

#include <cstdint>
#include <string>

namespace tessera::targets::cpu {

// The largest frame in the object's .stack_sizes section (LLVM writes it when
// llvm::TargetOptions::EmitStackSizeSection is set), or 0 where it has none.
int64_t largestStackFrame(const std::string &object);

} // namespace tessera::targets::cpu
