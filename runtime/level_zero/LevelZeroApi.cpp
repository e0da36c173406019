#include "runtime/level_zero/LevelZeroApi.h"

#include <cstdio>
#include <dlfcn.h>

namespace tessera::runtime {

std::string zeResultText(ze_result_t result) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%08x", unsigned(result));
  const char *name = nullptr;
  switch (result) {
  case ZE_RESULT_NOT_READY: name = "ZE_RESULT_NOT_READY"; break;
  case ZE_RESULT_ERROR_DEVICE_LOST: name = "ZE_RESULT_ERROR_DEVICE_LOST"; break;
  case ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY: name = "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY"; break;
  case ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY: name = "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"; break;
  case ZE_RESULT_ERROR_MODULE_BUILD_FAILURE: name = "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE"; break;
  case ZE_RESULT_ERROR_UNINITIALIZED: name = "ZE_RESULT_ERROR_UNINITIALIZED"; break;
  case ZE_RESULT_ERROR_UNSUPPORTED_VERSION: name = "ZE_RESULT_ERROR_UNSUPPORTED_VERSION"; break;
  case ZE_RESULT_ERROR_UNSUPPORTED_FEATURE: name = "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE"; break;
  case ZE_RESULT_ERROR_INVALID_ARGUMENT: name = "ZE_RESULT_ERROR_INVALID_ARGUMENT"; break;
  case ZE_RESULT_ERROR_INVALID_KERNEL_NAME: name = "ZE_RESULT_ERROR_INVALID_KERNEL_NAME"; break;
  case ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION: name = "ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION"; break;
  case ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE: name = "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE"; break;
  case ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE: name = "ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE"; break;
  default: break;
  }
  return name ? std::string(name) + " (" + hex + ")" : std::string(hex);
}

Status ZeApi::check(ze_result_t result, const char *call, StatusCode code) const {
  if (result == ZE_RESULT_SUCCESS) return Status::ok();
  if (result == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY || result == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY)
    code = StatusCode::OutOfMemory;
  return {code, std::string(call) + " failed: " + zeResultText(result)};
}

Status openZeApi(const std::string &path, std::unique_ptr<ZeApi> &out) {
  out.reset();
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *err = dlerror();
    return {StatusCode::Unavailable, "cannot load the Level Zero loader " + path + " (" + (err ? err : "?") + ")"};
  }
  auto api = std::make_unique<ZeApi>();
  api->library = lib;
  api->path = path;
  std::string missing;
#define TESSERA_ZE_RESOLVE(name)                                                                                       \
  api->name = reinterpret_cast<decltype(&::name)>(dlsym(lib, #name));                                                \
  if (!api->name) missing += std::string(missing.empty() ? "" : ", ") + #name;
  TESSERA_ZE_FUNCTIONS(TESSERA_ZE_RESOLVE)
#undef TESSERA_ZE_RESOLVE
  if (!missing.empty()) {
    dlclose(lib);
    return {StatusCode::Unavailable, path + " lacks Level Zero functions Tessera needs: " + missing};
  }
  out = std::move(api);
  return Status::ok();
}

} // namespace tessera::runtime
