// VK_KHR_cooperative_matrix (and VK_KHR_shader_bfloat16) on the Vulkan
// backend: the device's table of supported matrix shapes and types, queried
// where the device is opened (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR)
// and spelled as the arch suffix the spirv target reads
// (targets/spirv/CooperativeMatrix.h: "-cm16x16x16_f16_f16_f32_f32_sg+...").
// Debian 12's vulkan_core.h (1.3.239) predates both extensions, so their
// structures and enumerants are declared here, from the Vulkan registry.
#pragma once

#include "runtime/vulkan/VulkanApi.h"

#include <string>
#include <vector>

namespace tessera::runtime::vk {

constexpr const char *kCooperativeMatrixExtension = "VK_KHR_cooperative_matrix";
constexpr const char *kBFloat16Extension = "VK_KHR_shader_bfloat16";
constexpr VkStructureType kCooperativeMatrixFeaturesType = VkStructureType(1000506000);
constexpr VkStructureType kCooperativeMatrixPropertiesType = VkStructureType(1000506001);
constexpr VkStructureType kBFloat16FeaturesType = VkStructureType(1000141000);

struct CooperativeMatrixFeatures {
  VkStructureType sType = kCooperativeMatrixFeaturesType;
  void *pNext = nullptr;
  VkBool32 cooperativeMatrix = VK_FALSE;
  VkBool32 cooperativeMatrixRobustBufferAccess = VK_FALSE;
};

struct BFloat16Features {
  VkStructureType sType = kBFloat16FeaturesType;
  void *pNext = nullptr;
  VkBool32 shaderBFloat16Type = VK_FALSE;
  VkBool32 shaderBFloat16DotProduct = VK_FALSE;
  VkBool32 shaderBFloat16CooperativeMatrix = VK_FALSE;
};

// VkCooperativeMatrixPropertiesKHR; component types and scopes as the
// registry numbers them (VkComponentTypeKHR, VkScopeKHR).
struct CooperativeMatrixProperties {
  VkStructureType sType = kCooperativeMatrixPropertiesType;
  void *pNext = nullptr;
  uint32_t MSize = 0, NSize = 0, KSize = 0;
  uint32_t AType = 0, BType = 0, CType = 0, ResultType = 0;
  VkBool32 saturatingAccumulation = VK_FALSE;
  uint32_t scope = 0;
};

using PFN_GetCooperativeMatrixProperties = VkResult(VKAPI_PTR *)(VkPhysicalDevice, uint32_t *,
                                                                 CooperativeMatrixProperties *);

// The device's rows (an empty list where the query is missing or fails).
std::vector<CooperativeMatrixProperties> queryCooperativeMatrices(const InstanceApi &api, VkPhysicalDevice device);

// "-cm<entries>" for the rows a kernel may use, "" for none: rows whose
// component types the spirv target knows (f16, bf16 when `bfloat16` (the
// device's shaderBFloat16CooperativeMatrix), f32, s8, u8, s32, u32), without
// saturating accumulation (tl.dot wraps), of subgroup or workgroup scope.
std::string cooperativeMatrixArch(const std::vector<CooperativeMatrixProperties> &rows, bool bfloat16);

} // namespace tessera::runtime::vk
