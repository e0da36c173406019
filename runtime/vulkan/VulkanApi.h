// The Vulkan loader, dlopen'ed (libvulkan.so.1, or $TESSERA_LIBVULKAN):
// vulkan_core.h's types only (VK_NO_PROTOTYPES), every function resolved
// through vkGetInstanceProcAddr / vkGetDeviceProcAddr.
#pragma once

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan_core.h>

#include "runtime/Status.h"

#include <string>

namespace tessera::runtime::vk {

#define TESSERA_VK_INSTANCE_FUNCTIONS(X)                                                                               \
  X(vkDestroyInstance)                                                                                                 \
  X(vkEnumeratePhysicalDevices)                                                                                        \
  X(vkGetPhysicalDeviceProperties)                                                                                     \
  X(vkGetPhysicalDeviceProperties2)                                                                                    \
  X(vkGetPhysicalDeviceFeatures2)                                                                                      \
  X(vkGetPhysicalDeviceQueueFamilyProperties)                                                                          \
  X(vkGetPhysicalDeviceMemoryProperties)                                                                               \
  X(vkEnumerateDeviceExtensionProperties)                                                                              \
  X(vkCreateDevice)                                                                                                    \
  X(vkGetDeviceProcAddr)

#define TESSERA_VK_DEVICE_FUNCTIONS(X)                                                                                 \
  X(vkDestroyDevice)                                                                                                   \
  X(vkGetDeviceQueue)                                                                                                  \
  X(vkCreateBuffer)                                                                                                    \
  X(vkDestroyBuffer)                                                                                                   \
  X(vkGetBufferMemoryRequirements)                                                                                     \
  X(vkAllocateMemory)                                                                                                  \
  X(vkFreeMemory)                                                                                                      \
  X(vkBindBufferMemory)                                                                                                \
  X(vkMapMemory)                                                                                                       \
  X(vkUnmapMemory)                                                                                                     \
  X(vkGetBufferDeviceAddress)                                                                                          \
  X(vkCreateCommandPool)                                                                                               \
  X(vkDestroyCommandPool)                                                                                              \
  X(vkAllocateCommandBuffers)                                                                                          \
  X(vkFreeCommandBuffers)                                                                                              \
  X(vkBeginCommandBuffer)                                                                                              \
  X(vkEndCommandBuffer)                                                                                                \
  X(vkResetCommandBuffer)                                                                                              \
  X(vkCmdPipelineBarrier)                                                                                              \
  X(vkCmdCopyBuffer)                                                                                                   \
  X(vkCmdFillBuffer)                                                                                                   \
  X(vkCmdUpdateBuffer)                                                                                                 \
  X(vkCmdBindPipeline)                                                                                                 \
  X(vkCmdPushConstants)                                                                                                \
  X(vkCmdDispatch)                                                                                                     \
  X(vkCmdWriteTimestamp)                                                                                               \
  X(vkCmdResetQueryPool)                                                                                               \
  X(vkQueueSubmit)                                                                                                     \
  X(vkQueueWaitIdle)                                                                                                   \
  X(vkCreateFence)                                                                                                     \
  X(vkDestroyFence)                                                                                                    \
  X(vkWaitForFences)                                                                                                   \
  X(vkResetFences)                                                                                                     \
  X(vkGetFenceStatus)                                                                                                  \
  X(vkCreateShaderModule)                                                                                              \
  X(vkDestroyShaderModule)                                                                                             \
  X(vkCreatePipelineLayout)                                                                                            \
  X(vkDestroyPipelineLayout)                                                                                           \
  X(vkCreateComputePipelines)                                                                                          \
  X(vkDestroyPipeline)                                                                                                 \
  X(vkCreateQueryPool)                                                                                                 \
  X(vkDestroyQueryPool)                                                                                                \
  X(vkGetQueryPoolResults)

struct InstanceApi {
  void *library = nullptr;
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  VkInstance instance = VK_NULL_HANDLE;
#define X(name) PFN_##name name = nullptr;
  TESSERA_VK_INSTANCE_FUNCTIONS(X)
#undef X
};

struct DeviceApi {
#define X(name) PFN_##name name = nullptr;
  TESSERA_VK_DEVICE_FUNCTIONS(X)
#undef X
  // VK_KHR_pipeline_executable_properties, where enabled ($TESSERA_VULKAN_PIPELINE_STATS).
  PFN_vkGetPipelineExecutablePropertiesKHR vkGetPipelineExecutablePropertiesKHR = nullptr;
  PFN_vkGetPipelineExecutableStatisticsKHR vkGetPipelineExecutableStatisticsKHR = nullptr;
};

// Loads the library at `path` (empty: $TESSERA_LIBVULKAN or libvulkan.so.1)
// and creates an instance (Vulkan 1.2 or newer).
Status openInstance(const std::string &path, InstanceApi &out);
Status loadDeviceApi(const InstanceApi &api, VkDevice device, DeviceApi &out);

// "vkQueueSubmit failed: VK_ERROR_DEVICE_LOST".
Status check(VkResult result, const char *call, StatusCode code = StatusCode::Internal);
const char *resultName(VkResult result);

} // namespace tessera::runtime::vk
