// Enumerants of SPIR-V extensions that Debian's SPIR-V headers (1.3.239)
// predate, with values from the extension texts: SPV_KHR_cooperative_matrix,
// SPV_KHR_bfloat16, and the Vulkan memory model the former requires of
// shaders.
#pragma once

#include <cstdint>

namespace tessera::targets::spirv {

// SPV_KHR_cooperative_matrix and SPV_KHR_bfloat16 (and the memory model the
// former requires of shaders).
namespace coop {
constexpr uint32_t kCapabilityCooperativeMatrix = 6022;
constexpr uint32_t kCapabilityBFloat16Type = 5116;
constexpr uint32_t kCapabilityBFloat16CooperativeMatrix = 5118;
constexpr uint32_t kCapabilityVulkanMemoryModel = 5345;
constexpr uint32_t kCapabilityVulkanMemoryModelDeviceScope = 5346;
constexpr uint32_t kMemoryModelVulkan = 3;
constexpr uint32_t kOpTypeCooperativeMatrix = 4456;
constexpr uint32_t kOpLoad = 4457;
constexpr uint32_t kOpStore = 4458;
constexpr uint32_t kOpMulAdd = 4459;
constexpr uint32_t kUseA = 0, kUseB = 1, kUseAccumulator = 2;  // CooperativeMatrixUse
constexpr uint32_t kRowMajor = 0;                             // CooperativeMatrixLayout
// Cooperative Matrix Operands of OpCooperativeMatrixMulAddKHR.
constexpr uint32_t kASigned = 0x1, kBSigned = 0x2, kCSigned = 0x4, kResultSigned = 0x8;
constexpr uint32_t kFPEncodingBFloat16 = 0;  // OpTypeFloat's FP Encoding operand
constexpr uint32_t kNonPrivatePointer = 0x20;  // Memory Operands (Vulkan memory model)
} // namespace coop

} // namespace tessera::targets::spirv
