// What a launch needs from an OpenCL-flavour SPIR-V module, read from the
// binary: each kernel's parameter sizes and which are pointers, its
// LocalSize, and the subgroup size Tessera compiled it for. Shared by the
// backends that run that flavour (Level Zero, OpenCL).
#pragma once

#include "runtime/Status.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessera::runtime {

struct SpirvKernelInfo {
  std::vector<uint32_t> paramBytes;       // per user argument (OpFunctionParameter)
  std::vector<bool> paramPointer;         // per user argument: a CrossWorkgroup pointer (OpenCL sets these apart)
  std::array<uint32_t, 3> localSize{0, 0, 0};
  bool assertRecord = false;              // a last, hidden parameter: the assertion record's address
};

struct SpirvModuleInfo {
  std::map<std::string, SpirvKernelInfo> kernels;   // by entry-point name
  uint32_t subgroupSize = 0;                        // 0: not stated
  std::map<uint32_t, std::string> assertMessages;   // assertion number -> "file:line: device assertion failed: ..."
  std::vector<uint32_t> capabilities;               // OpCapability operands, in order
};

// The hidden parameter of kernels with device assertions (targets/spirv/Emitter.h).
inline constexpr const char *kAssertRecordParameter = "tessera_assert_record";

// LoadFailed when `words` is not a SPIR-V module or is malformed.
Status reflectOpenClSpirv(const uint32_t *words, size_t count, SpirvModuleInfo &out);

} // namespace tessera::runtime
