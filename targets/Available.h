// Which code generators this build of Tessera contains.
#pragma once

#include <string>
#include <vector>

namespace tessera::targets {

struct BackendStatus {
  std::string name;       // "nvptx", "amdgpu", "spirv", "cpu"
  std::string generator;  // what produces its code
  bool present;           // the generator is linked into this build
  std::string note;
};

std::vector<BackendStatus> availableBackends();
std::string llvmVersion();  // empty without LLVM

} // namespace tessera::targets
