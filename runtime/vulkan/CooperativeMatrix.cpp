#include "runtime/vulkan/CooperativeMatrix.h"

namespace tessera::runtime::vk {
namespace {

// VkComponentTypeKHR -> the spirv target's name; null for types it has no use for.
const char *componentName(uint32_t type, bool bfloat16) {
  switch (type) {
  case 0: return "f16";
  case 1: return "f32";
  case 3: return "s8";
  case 5: return "s32";
  case 7: return "u8";
  case 9: return "u32";
  case 1000141000: return bfloat16 ? "bf16" : nullptr;
  default: return nullptr;  // f64, 16/64-bit integers, fp8
  }
}

} // namespace

std::vector<CooperativeMatrixProperties> queryCooperativeMatrices(const InstanceApi &api, VkPhysicalDevice device) {
  auto query = reinterpret_cast<PFN_GetCooperativeMatrixProperties>(
      api.vkGetInstanceProcAddr(api.instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR"));
  if (!query) return {};
  uint32_t count = 0;
  if (query(device, &count, nullptr) != VK_SUCCESS || count == 0) return {};
  std::vector<CooperativeMatrixProperties> rows(count);
  if (query(device, &count, rows.data()) != VK_SUCCESS) return {};
  rows.resize(count);
  return rows;
}

std::string cooperativeMatrixArch(const std::vector<CooperativeMatrixProperties> &rows, bool bfloat16) {
  std::string entries;
  for (const CooperativeMatrixProperties &r : rows) {
    const char *names[] = {componentName(r.AType, bfloat16), componentName(r.BType, bfloat16),
                           componentName(r.CType, bfloat16), componentName(r.ResultType, bfloat16)};
    bool known = names[0] && names[1] && names[2] && names[3];
    // VK_SCOPE_SUBGROUP_KHR = 3, VK_SCOPE_WORKGROUP_KHR = 2.
    if (!known || r.saturatingAccumulation || (r.scope != 3 && r.scope != 2)) continue;
    if (r.MSize == 0 || r.NSize == 0 || r.KSize == 0 || r.MSize > 256 || r.NSize > 256 || r.KSize > 256) continue;
    std::string entry = std::to_string(r.MSize) + "x" + std::to_string(r.NSize) + "x" + std::to_string(r.KSize);
    for (const char *n : names) entry += std::string("_") + n;
    entry += r.scope == 3 ? "_sg" : "_wg";
    if (("+" + entries + "+").find("+" + entry + "+") != std::string::npos) continue;
    entries += (entries.empty() ? "" : "+") + entry;
  }
  return entries.empty() ? "" : "-cm" + entries;
}

} // namespace tessera::runtime::vk
