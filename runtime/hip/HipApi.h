// The HIP runtime API, opened at run time (libamdhip64.so). Tessera never
// links it, and needs no HIP headers either: the few types it uses are
// declared here (HIP's C ABI: error codes are ints, handles are pointers).
#pragma once

#include "runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

namespace tessera::runtime {

namespace hip {
using Error = int;  // hipError_t; 0 = hipSuccess
using Stream = struct ihipStream_t *;
using Event = struct ihipEvent_t *;
using ModuleHandle = struct ihipModule_t *;
using Function = struct ihipModuleSymbol_t *;
constexpr Error kSuccess = 0;
constexpr Error kErrorOutOfMemory = 2;
constexpr Error kErrorNoDevice = 100;
enum MemcpyKind : int { kHostToDevice = 1, kDeviceToHost = 2, kDeviceToDevice = 3 };
} // namespace hip

// X(member, signature, exported symbol).
#define TESSERA_HIP_FUNCTIONS(X)                                                                                      \
  X(hipInit, hip::Error(unsigned), "hipInit")                                                                         \
  X(hipGetDeviceCount, hip::Error(int *), "hipGetDeviceCount")                                                        \
  X(hipDeviceGetName, hip::Error(char *, int, int), "hipDeviceGetName")                                               \
  X(hipSetDevice, hip::Error(int), "hipSetDevice")                                                                    \
  X(hipGetDevice, hip::Error(int *), "hipGetDevice")                                                                  \
  X(hipDeviceSynchronize, hip::Error(), "hipDeviceSynchronize")                                                       \
  X(hipMalloc, hip::Error(void **, size_t), "hipMalloc")                                                              \
  X(hipFree, hip::Error(void *), "hipFree")                                                                           \
  X(hipMemcpyAsync, hip::Error(void *, const void *, size_t, int, hip::Stream), "hipMemcpyAsync")                    \
  X(hipStreamCreate, hip::Error(hip::Stream *), "hipStreamCreate")                                                    \
  X(hipStreamDestroy, hip::Error(hip::Stream), "hipStreamDestroy")                                                    \
  X(hipStreamSynchronize, hip::Error(hip::Stream), "hipStreamSynchronize")                                            \
  X(hipStreamWaitEvent, hip::Error(hip::Stream, hip::Event, unsigned), "hipStreamWaitEvent")                          \
  X(hipEventCreate, hip::Error(hip::Event *), "hipEventCreate")                                                       \
  X(hipEventDestroy, hip::Error(hip::Event), "hipEventDestroy")                                                       \
  X(hipEventRecord, hip::Error(hip::Event, hip::Stream), "hipEventRecord")                                            \
  X(hipEventSynchronize, hip::Error(hip::Event), "hipEventSynchronize")                                               \
  X(hipEventElapsedTime, hip::Error(float *, hip::Event, hip::Event), "hipEventElapsedTime")                          \
  X(hipModuleLoadData, hip::Error(hip::ModuleHandle *, const void *), "hipModuleLoadData")                            \
  X(hipModuleUnload, hip::Error(hip::ModuleHandle), "hipModuleUnload")                                                \
  X(hipModuleGetFunction, hip::Error(hip::Function *, hip::ModuleHandle, const char *), "hipModuleGetFunction")       \
  X(hipModuleLaunchKernel,                                                                                            \
    hip::Error(hip::Function, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, hip::Stream,      \
               void **, void **),                                                                                     \
    "hipModuleLaunchKernel")                                                                                          \
  X(hipGetErrorName, const char *(hip::Error), "hipGetErrorName")                                                     \
  X(hipGetErrorString, const char *(hip::Error), "hipGetErrorString")

struct HipApi {
  void *library = nullptr;  // the dlopen handle; never closed (devices live for the process)
  std::string path;
#define TESSERA_HIP_MEMBER(name, signature, symbol) std::add_pointer_t<signature> name = nullptr;
  TESSERA_HIP_FUNCTIONS(TESSERA_HIP_MEMBER)
#undef TESSERA_HIP_MEMBER
  // hipGetDeviceProperties' struct changed between HIP 5 and 6 (the symbol
  // too: hipGetDevicePropertiesR0600); only its gcnArchName is read, found
  // by its "gfx" prefix in a buffer larger than either version's struct.
  hip::Error (*getDeviceProperties)(void *, int) = nullptr;

  // Ok for hipSuccess; otherwise "<call> failed: hipErrorX (text)" with
  // `code` (OutOfMemory and Unavailable for those errors whatever `code` says).
  Status check(hip::Error result, const char *call, StatusCode code = StatusCode::Internal) const;
  std::string describe(hip::Error result) const;
  // The device's architecture name ("gfx90a:sramecc+:xnack-"), or "".
  std::string architecture(int device) const;
};

// Opens the HIP library at `path` and resolves every function; Unavailable
// when the library or a function is missing. No HIP call is made.
Status openHipApi(const std::string &path, std::unique_ptr<HipApi> &out);

// Checks that `binary` is an AMDGPU HSA code object for `arch` ("gfx942",
// or "" for any): InvalidArgument naming what it is otherwise.
Status checkCodeObject(const void *binary, size_t size, const std::string &arch);

// What a kernel's descriptor (the `<entry>.kd` symbol of its code object)
// says about launching it.
struct KernelDescriptor {
  uint32_t ldsBytes = 0;      // group segment: LDS per work-group
  uint32_t scratchBytes = 0;  // private segment per lane
  uint32_t kernargBytes = 0;  // the kernel arguments, implicit ones included
  int waveSize = 64;
};
// Reads `entry`'s descriptor from code object `binary` (checked by
// checkCodeObject); NotFound when it has none, InvalidArgument when the
// ELF is malformed.
Status readKernelDescriptor(const void *binary, size_t size, const std::string &entry, KernelDescriptor &out);

} // namespace tessera::runtime
