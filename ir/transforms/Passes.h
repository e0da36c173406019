// The shared passes, one per file in this folder.
#pragma once

#include "ir/IR.h"

namespace tessera::ir {

#define PASS(Name, Fn, Description) void Fn(Module &m);
#include "ir/transforms/Passes.def"
#undef PASS

} // namespace tessera::ir
