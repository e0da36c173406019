// Which code generators this build of Tessera contains.
#pragma once

#include "targets/Target.h"

#include <string>
#include <vector>

namespace tessera::targets {

// One per registry row, in its order.
struct BackendStatus {
  std::string name;       // "cpu", "nvptx", "amdgpu", "spirv"
  std::string generator;  // what produces its code
  bool present;           // the generator is linked into this build
  std::string note;
  const TargetRow *row;   // everything else the registry says about it
};

std::vector<BackendStatus> availableBackends();
std::string llvmVersion();  // empty without LLVM

} // namespace tessera::targets
