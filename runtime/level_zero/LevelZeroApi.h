// The Level Zero API, opened at run time (libze_loader.so.1 or
// $TESSERA_LIBZE_LOADER). ze_api.h (Debian's libze-dev) gives the types;
// every function comes from dlsym, so nothing of Level Zero is linked.
#pragma once

#include "runtime/Status.h"

#include <level_zero/ze_api.h>

#include <memory>
#include <string>

namespace tessera::runtime {

#define TESSERA_ZE_FUNCTIONS(X)                                                                                        \
  X(zeInit) X(zeDriverGet) X(zeDeviceGet) X(zeDeviceGetProperties) X(zeDeviceGetComputeProperties)                    \
  X(zeDeviceGetModuleProperties)                                                                                     \
  X(zeContextCreate) X(zeContextDestroy) X(zeMemAllocDevice) X(zeMemAllocHost) X(zeMemFree)                           \
  X(zeCommandListCreateImmediate) X(zeCommandListDestroy) X(zeCommandListAppendMemoryCopy)                           \
  X(zeCommandListAppendLaunchKernel) X(zeCommandListAppendBarrier) X(zeCommandListAppendWriteGlobalTimestamp)        \
  X(zeEventPoolCreate) X(zeEventPoolDestroy) X(zeEventCreate) X(zeEventDestroy) X(zeEventHostSynchronize)             \
  X(zeEventHostReset) X(zeModuleCreate) X(zeModuleDestroy) X(zeModuleBuildLogGetString) X(zeModuleBuildLogDestroy)    \
  X(zeKernelCreate) X(zeKernelDestroy) X(zeKernelSetGroupSize) X(zeKernelSetArgumentValue)

struct ZeApi {
  void *library = nullptr;  // never closed (devices live for the process)
  std::string path;
#define TESSERA_ZE_MEMBER(name) decltype(&::name) name = nullptr;
  TESSERA_ZE_FUNCTIONS(TESSERA_ZE_MEMBER)
#undef TESSERA_ZE_MEMBER

  // Ok for ZE_RESULT_SUCCESS; otherwise "<call> failed: ZE_RESULT_ERROR_X
  // (0x...)" with `code` (OutOfMemory for the out-of-memory results).
  Status check(ze_result_t result, const char *call, StatusCode code = StatusCode::Internal) const;
};

// "ZE_RESULT_ERROR_UNINITIALIZED (0x78000001)".
std::string zeResultText(ze_result_t result);

// Opens the loader at `path` and resolves every function; Unavailable when
// the library or a function is missing. No Level Zero call is made.
Status openZeApi(const std::string &path, std::unique_ptr<ZeApi> &out);

} // namespace tessera::runtime
