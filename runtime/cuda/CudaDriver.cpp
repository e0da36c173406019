// Loading libcuda with dlopen and turning CUresult codes into Status text.
#include "runtime/cuda/CudaDriver.h"

#include <dlfcn.h>

namespace tessera::runtime {

std::string CudaDriver::describe(CUresult result) const {
  const char *name = nullptr, *text = nullptr;
  // The lookups themselves can fail (an unknown code from a newer driver).
  if (!cuGetErrorName || cuGetErrorName(result, &name) != CUDA_SUCCESS || !name) name = nullptr;
  if (!cuGetErrorString || cuGetErrorString(result, &text) != CUDA_SUCCESS || !text) text = nullptr;
  std::string s = name ? name : "CUDA error " + std::to_string(int(result));
  if (text) s += std::string(" (") + text + ")";
  return s;
}

Status CudaDriver::check(CUresult result, const char *call, StatusCode code) const {
  if (result == CUDA_SUCCESS) return Status::ok();
  if (result == CUDA_ERROR_OUT_OF_MEMORY) code = StatusCode::OutOfMemory;
  if (result == CUDA_ERROR_ASSERT) code = StatusCode::AssertFailed;  // a kernel's __assertfail
  if (result == CUDA_ERROR_NO_DEVICE || result == CUDA_ERROR_STUB_LIBRARY)
    code = StatusCode::Unavailable;
  return {code, std::string(call) + " failed: " + describe(result)};
}

Status openCudaDriver(const std::string &path, std::unique_ptr<CudaDriver> &out) {
  out.reset();
  // RTLD_LOCAL: the driver's symbols must not satisfy anyone else's lookups.
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *err = dlerror();
    return {StatusCode::Unavailable, "the CUDA driver library could not be loaded (no NVIDIA driver on this machine?): " +
                                         std::string(err ? err : path)};
  }
  auto drv = std::make_unique<CudaDriver>();
  drv->library = lib;
  drv->path = path;
  std::string missing;
#define TESSERA_CUDA_RESOLVE(name, symbol)                                                                             \
  drv->name = reinterpret_cast<decltype(drv->name)>(dlsym(lib, symbol));                                               \
  if (!drv->name) missing += std::string(missing.empty() ? "" : ", ") + symbol;
  TESSERA_CUDA_DRIVER_FUNCTIONS(TESSERA_CUDA_RESOLVE)
#undef TESSERA_CUDA_RESOLVE
  if (!missing.empty()) {
    dlclose(lib);
    return {StatusCode::Unavailable, path + " lacks driver functions Tessera needs (a driver older than CUDA 11?): " + missing};
  }
  drv->cuTensorMapEncodeTiled = reinterpret_cast<decltype(drv->cuTensorMapEncodeTiled)>(dlsym(lib, "cuTensorMapEncodeTiled"));
  out = std::move(drv);
  return Status::ok();
}

} // namespace tessera::runtime
