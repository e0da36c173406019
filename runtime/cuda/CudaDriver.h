// The CUDA driver API, opened at run time. Tessera never links libcuda: the
// same libtessera.so must load on machines without an NVIDIA driver, so the
// functions are looked up with dlsym and the declarations come from cuda.h.
#pragma once

#include "runtime/Status.h"

#include <cuda.h>
#include <memory>
#include <string>

namespace tessera::runtime {

// X(member, exported symbol). The symbols are the explicit ABI versions every
// driver since CUDA 11 exports; cuda.h's macros map some member names to
// newer versions (cuEventElapsedTime -> _v2 in CUDA 13) whose types are
// identical, which an older driver would not have under the new name.
#define TESSERA_CUDA_DRIVER_FUNCTIONS(X)                                                                              \
  X(cuInit, "cuInit")                                                                                                  \
  X(cuDriverGetVersion, "cuDriverGetVersion")                                                                          \
  X(cuDeviceGet, "cuDeviceGet")                                                                                        \
  X(cuDeviceGetCount, "cuDeviceGetCount")                                                                              \
  X(cuDeviceGetName, "cuDeviceGetName")                                                                                \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute")                                                                      \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")                                                              \
  X(cuCtxSetCurrent, "cuCtxSetCurrent")                                                                                \
  X(cuCtxGetCurrent, "cuCtxGetCurrent")                                                                                \
  X(cuCtxSynchronize, "cuCtxSynchronize")                                                                              \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx")                                                                          \
  X(cuModuleUnload, "cuModuleUnload")                                                                                  \
  X(cuModuleGetFunction, "cuModuleGetFunction")                                                                        \
  X(cuFuncSetAttribute, "cuFuncSetAttribute")                                                                          \
  X(cuFuncGetAttribute, "cuFuncGetAttribute")                                                                          \
  X(cuLaunchKernel, "cuLaunchKernel")                                                                                  \
  X(cuMemAlloc, "cuMemAlloc_v2")                                                                                       \
  X(cuMemFree, "cuMemFree_v2")                                                                                         \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2")                                                                                   \
  X(cuMemcpyDtoH, "cuMemcpyDtoH_v2")                                                                                   \
  X(cuMemcpyDtoD, "cuMemcpyDtoD_v2")                                                                                   \
  X(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2")                                                                         \
  X(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2")                                                                         \
  X(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2")                                                                         \
  X(cuStreamCreate, "cuStreamCreate")                                                                                  \
  X(cuStreamSynchronize, "cuStreamSynchronize")                                                                        \
  X(cuStreamDestroy, "cuStreamDestroy_v2")                                                                             \
  X(cuStreamWaitEvent, "cuStreamWaitEvent")                                                                            \
  X(cuEventCreate, "cuEventCreate")                                                                                    \
  X(cuEventRecord, "cuEventRecord")                                                                                    \
  X(cuEventSynchronize, "cuEventSynchronize")                                                                          \
  X(cuEventElapsedTime, "cuEventElapsedTime")                                                                          \
  X(cuEventDestroy, "cuEventDestroy_v2")                                                                               \
  X(cuGetErrorName, "cuGetErrorName")                                                                                  \
  X(cuGetErrorString, "cuGetErrorString")

struct CudaDriver {
  void *library = nullptr;  // the dlopen handle; never closed (devices live for the process)
  std::string path;
#define TESSERA_CUDA_MEMBER(name, symbol) decltype(&::name) name = nullptr;
  TESSERA_CUDA_DRIVER_FUNCTIONS(TESSERA_CUDA_MEMBER)
#undef TESSERA_CUDA_MEMBER

  // Optional: drivers before CUDA 12 have none (null), and kernels that copy
  // through tensor maps cannot launch there.
  decltype(&::cuTensorMapEncodeTiled) cuTensorMapEncodeTiled = nullptr;

  // Ok for CUDA_SUCCESS; otherwise "<call> failed: CUDA_ERROR_X (text)" with
  // `code` (OutOfMemory for CUDA_ERROR_OUT_OF_MEMORY whatever `code` says).
  Status check(CUresult result, const char *call, StatusCode code = StatusCode::Internal) const;
  // "CUDA_ERROR_X (text)"
  std::string describe(CUresult result) const;
};

// Opens the driver library at `path` ("libcuda.so.1" searches the loader's
// path) and resolves every function. Unavailable when the library or a
// function is missing; no driver call is made.
Status openCudaDriver(const std::string &path, std::unique_ptr<CudaDriver> &out);

} // namespace tessera::runtime
