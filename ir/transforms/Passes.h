// The shared passes, one per file in this folder.
#pragma once

#include "ir/IR.h"

#include <functional>
#include <optional>
#include <string>

namespace tessera::ir {

#define PASS(Name, Fn, Description) void Fn(Module &m);
#include "ir/transforms/Passes.def"
#undef PASS

// dce within one block (and the regions of its ops), for a pass that
// leaves dead values behind in code it builds.
void eliminateDeadCode(Block &b);

// The seam through which a target chooses the layouts of a dot (its
// tensor-core fragments): assign-layouts asks the hook registered for the
// module's `target` attribute, and converts the operands to what it returns.
// A null layout leaves that one to the pass; no answer leaves all three.
struct DotLayouts {
  const Layout *a = nullptr, *b = nullptr, *acc = nullptr;
};
// `module`: the module's attributes (num_warps, warp_size, arch, ...).
using DotLayoutHook = std::function<std::optional<DotLayouts>(const Operation &dot, const AttrDict &module)>;
void registerDotLayouts(const std::string &target, DotLayoutHook hook);
void clearDotLayoutsForTesting(const std::string &target);

} // namespace tessera::ir
