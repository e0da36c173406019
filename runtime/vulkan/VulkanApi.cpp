#include "runtime/vulkan/VulkanApi.h"

#include <dlfcn.h>

#include <cstdlib>

namespace tessera::runtime::vk {

const char *resultName(VkResult r) {
  switch (r) {
#define CASE(x) case x: return #x;
    CASE(VK_SUCCESS) CASE(VK_NOT_READY) CASE(VK_TIMEOUT) CASE(VK_INCOMPLETE)
    CASE(VK_ERROR_OUT_OF_HOST_MEMORY) CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY) CASE(VK_ERROR_INITIALIZATION_FAILED)
    CASE(VK_ERROR_DEVICE_LOST) CASE(VK_ERROR_MEMORY_MAP_FAILED) CASE(VK_ERROR_LAYER_NOT_PRESENT)
    CASE(VK_ERROR_EXTENSION_NOT_PRESENT) CASE(VK_ERROR_FEATURE_NOT_PRESENT) CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    CASE(VK_ERROR_TOO_MANY_OBJECTS) CASE(VK_ERROR_FORMAT_NOT_SUPPORTED) CASE(VK_ERROR_UNKNOWN)
    CASE(VK_ERROR_INVALID_SHADER_NV) CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
#undef CASE
  default: return "VkResult (unknown)";
  }
}

Status check(VkResult result, const char *call, StatusCode code) {
  if (result == VK_SUCCESS) return Status::ok();
  if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY || result == VK_ERROR_OUT_OF_HOST_MEMORY) code = StatusCode::OutOfMemory;
  return {code, std::string(call) + " failed: " + resultName(result) + " (" + std::to_string(int(result)) + ")"};
}

Status openInstance(const std::string &path, InstanceApi &out) {
  std::string lib = path;
  if (lib.empty())
    if (const char *env = std::getenv("TESSERA_LIBVULKAN")) lib = env;
  if (lib.empty()) lib = "libvulkan.so.1";
  out.library = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!out.library) return {StatusCode::Unavailable, "cannot load the Vulkan loader " + lib + ": " + dlerror()};
  out.vkGetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(out.library, "vkGetInstanceProcAddr"));
  if (!out.vkGetInstanceProcAddr) return {StatusCode::Unavailable, lib + " has no vkGetInstanceProcAddr"};
  auto enumerateVersion = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      out.vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkEnumerateInstanceVersion"));
  uint32_t version = VK_API_VERSION_1_0;
  if (enumerateVersion) enumerateVersion(&version);
  if (version < VK_API_VERSION_1_2)
    return {StatusCode::Unavailable, "the Vulkan loader is version " + std::to_string(VK_API_VERSION_MAJOR(version)) + "." +
                                         std::to_string(VK_API_VERSION_MINOR(version)) + "; Tessera needs 1.2 or newer"};
  auto createInstance = reinterpret_cast<PFN_vkCreateInstance>(out.vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkCreateInstance"));
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "tessera";
  app.pEngineName = "tessera";
  app.apiVersion = version >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  if (Status st = check(createInstance(&info, nullptr, &out.instance), "vkCreateInstance", StatusCode::Unavailable); !st)
    return st;
#define X(name)                                                                                                        \
  out.name = reinterpret_cast<PFN_##name>(out.vkGetInstanceProcAddr(out.instance, #name));                             \
  if (!out.name) return {StatusCode::Unavailable, "the Vulkan loader has no " #name};
  TESSERA_VK_INSTANCE_FUNCTIONS(X)
#undef X
  return Status::ok();
}

Status loadDeviceApi(const InstanceApi &api, VkDevice device, DeviceApi &out) {
#define X(name)                                                                                                        \
  out.name = reinterpret_cast<PFN_##name>(api.vkGetDeviceProcAddr(device, #name));                                     \
  if (!out.name) return {StatusCode::Unavailable, "the Vulkan driver has no " #name};
  TESSERA_VK_DEVICE_FUNCTIONS(X)
#undef X
  out.vkGetPipelineExecutablePropertiesKHR = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
      api.vkGetDeviceProcAddr(device, "vkGetPipelineExecutablePropertiesKHR"));
  out.vkGetPipelineExecutableStatisticsKHR = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
      api.vkGetDeviceProcAddr(device, "vkGetPipelineExecutableStatisticsKHR"));
  return Status::ok();
}

} // namespace tessera::runtime::vk
