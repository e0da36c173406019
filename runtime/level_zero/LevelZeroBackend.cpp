#include "runtime/level_zero/LevelZeroBackend.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace tessera::runtime {

namespace {

// The few declarations of ze_api.h the probe needs (no header dependency,
// as for HIP): results are 32-bit codes, handles opaque pointers.
using ze_result_t = int32_t;
using ze_driver_handle_t = void *;
using zeInit_t = ze_result_t (*)(uint32_t flags);
using zeDriverGet_t = ze_result_t (*)(uint32_t *count, ze_driver_handle_t *drivers);
using zeDeviceGet_t = ze_result_t (*)(ze_driver_handle_t driver, uint32_t *count, void **devices);
constexpr uint32_t kInitGpuOnly = 1;

std::string resultText(ze_result_t r) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%08x", uint32_t(r));
  switch (uint32_t(r)) {
  case 0x78000001u: return std::string("ZE_RESULT_ERROR_UNINITIALIZED (") + hex + ")";
  case 0x78000003u: return std::string("ZE_RESULT_ERROR_UNSUPPORTED_VERSION (") + hex + ")";
  case 0x70020000u: return std::string("ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE (") + hex + ")";
  default: return hex;
  }
}

Status probe() {
  const char *env = std::getenv("TESSERA_LIBZE_LOADER");
  std::string path = env && *env ? env : "libze_loader.so.1";
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) return {StatusCode::Unavailable, "cannot load the Level Zero loader " + path + " (" + dlerror() + ")"};
  auto zeInit = reinterpret_cast<zeInit_t>(dlsym(lib, "zeInit"));
  auto zeDriverGet = reinterpret_cast<zeDriverGet_t>(dlsym(lib, "zeDriverGet"));
  auto zeDeviceGet = reinterpret_cast<zeDeviceGet_t>(dlsym(lib, "zeDeviceGet"));
  if (!zeInit || !zeDriverGet || !zeDeviceGet) return {StatusCode::Unavailable, path + " lacks zeInit/zeDriverGet/zeDeviceGet"};
  if (ze_result_t r = zeInit(kInitGpuOnly); r != 0)
    return {StatusCode::Unavailable, "no Level Zero driver on this machine (zeInit: " + resultText(r) + ")"};
  uint32_t drivers = 0;
  if (ze_result_t r = zeDriverGet(&drivers, nullptr); r != 0 || drivers == 0)
    return {StatusCode::Unavailable, "no Level Zero driver on this machine (zeDriverGet: " +
                                         (r ? resultText(r) : std::string("0 drivers")) + ")"};
  std::vector<ze_driver_handle_t> handles(drivers);
  zeDriverGet(&drivers, handles.data());
  uint32_t devices = 0;
  for (ze_driver_handle_t d : handles) {
    uint32_t n = 0;
    if (zeDeviceGet(d, &n, nullptr) == 0) devices += n;
  }
  if (devices == 0) return {StatusCode::Unavailable, "the Level Zero drivers here report no device"};
  return {StatusCode::Unavailable, std::to_string(devices) + " Level Zero device(s) found, but Tessera's Level Zero backend "
                                       "cannot run kernels yet (the spirv target's OpenCL flavour compiles for them: "
                                       "tessera compile --target level_zero)"};
}

} // namespace

Backend *levelZeroBackend() { return nullptr; }

Status levelZeroBackendStatus() {
  static const Status status = probe();
  return status;
}

} // namespace tessera::runtime
