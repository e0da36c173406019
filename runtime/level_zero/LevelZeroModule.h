// What a launch needs from an OpenCL-flavour SPIR-V module, read from the
// binary: each kernel's parameter sizes, its LocalSize, and the subgroup
// size Tessera compiled it for.
#pragma once

#include "runtime/Status.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessera::runtime {

struct SpirvKernelInfo {
  std::vector<uint32_t> paramBytes;       // per OpFunctionParameter
  std::array<uint32_t, 3> localSize{0, 0, 0};
};

struct SpirvModuleInfo {
  std::map<std::string, SpirvKernelInfo> kernels;  // by entry-point name
  uint32_t subgroupSize = 0;                       // 0: not stated
};

// LoadFailed when `words` is not a SPIR-V module or is malformed.
Status reflectOpenClSpirv(const uint32_t *words, size_t count, SpirvModuleInfo &out);

} // namespace tessera::runtime
