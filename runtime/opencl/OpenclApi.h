// The OpenCL API, opened at run time: the ICD loader libOpenCL.so.1
// (Debian's ocl-icd-libopencl1), or $TESSERA_LIBOPENCL. Tessera needs no
// OpenCL headers: the few types, constants and functions it uses are
// declared here from the OpenCL 3.0 specification (handles are opaque
// pointers, errors are negative cl_int). Nothing of OpenCL is linked.
#pragma once

#include "runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

namespace tessera::runtime {

namespace cl {
using Int = int32_t;    // cl_int: CL_SUCCESS (0) or a negative error code
using Uint = uint32_t;  // cl_uint, and the *_info enumerations
using Ulong = uint64_t; // cl_ulong, cl_bitfield (device types, SVM flags, queue properties)
using Platform = struct _cl_platform_id *;
using DeviceId = struct _cl_device_id *;
using Context = struct _cl_context *;
using Queue = struct _cl_command_queue *;
using Program = struct _cl_program *;
using KernelHandle = struct _cl_kernel *;
using EventHandle = struct _cl_event *;

constexpr Int kSuccess = 0;
constexpr Uint kTrue = 1, kFalse = 0;
constexpr Ulong kDeviceTypeCpu = 1 << 1, kDeviceTypeGpu = 1 << 2, kDeviceTypeAll = 0xFFFFFFFF;
// clGetPlatformInfo
constexpr Uint kPlatformVersion = 0x0901, kPlatformName = 0x0902;
// clGetDeviceInfo
constexpr Uint kDeviceType = 0x1000, kDeviceMaxComputeUnits = 0x1002, kDeviceMaxWorkGroupSize = 0x1004,
               kDeviceMaxClockFrequency = 0x100C, kDeviceGlobalMemSize = 0x101F, kDeviceLocalMemSize = 0x1023,
               kDeviceName = 0x102B, kDeviceVersion = 0x102F, kDeviceExtensions = 0x1030,
               kDeviceDoubleFpConfig = 0x1032, kDeviceSvmCapabilities = 0x1053, kDeviceIlVersion = 0x105B,
               kDeviceSubGroupSizesIntel = 0x4108;
constexpr Ulong kSvmCoarseGrainBuffer = 1 << 0;
constexpr Ulong kMemReadWrite = 1 << 0;
// clCreateCommandQueueWithProperties
constexpr Ulong kQueueProperties = 0x1093, kQueueProfilingEnable = 1 << 1;
constexpr Uint kProgramBuildLog = 0x1183;
constexpr Uint kKernelWorkGroupSize = 0x11B0, kKernelPrivateMemSize = 0x11B4;
constexpr Uint kEventCommandExecutionStatus = 0x11D3;
constexpr Uint kProfilingCommandEnd = 0x1283;
} // namespace cl

// X(member, signature): the exported symbol is the member's name.
#define TESSERA_CL_FUNCTIONS(X)                                                                                         \
  X(clGetPlatformIDs, cl::Int(cl::Uint, cl::Platform *, cl::Uint *))                                                   \
  X(clGetPlatformInfo, cl::Int(cl::Platform, cl::Uint, size_t, void *, size_t *))                                      \
  X(clGetDeviceIDs, cl::Int(cl::Platform, cl::Ulong, cl::Uint, cl::DeviceId *, cl::Uint *))                            \
  X(clGetDeviceInfo, cl::Int(cl::DeviceId, cl::Uint, size_t, void *, size_t *))                                        \
  X(clCreateContext, cl::Context(const intptr_t *, cl::Uint, const cl::DeviceId *,                                      \
                                 void (*)(const char *, const void *, size_t, void *), void *, cl::Int *))             \
  X(clReleaseContext, cl::Int(cl::Context))                                                                            \
  X(clCreateCommandQueueWithProperties, cl::Queue(cl::Context, cl::DeviceId, const cl::Ulong *, cl::Int *))            \
  X(clReleaseCommandQueue, cl::Int(cl::Queue))                                                                         \
  X(clFlush, cl::Int(cl::Queue))                                                                                       \
  X(clFinish, cl::Int(cl::Queue))                                                                                      \
  X(clSVMAlloc, void *(cl::Context, cl::Ulong, size_t, cl::Uint))                                                      \
  X(clSVMFree, void(cl::Context, void *))                                                                              \
  X(clEnqueueSVMMemcpy,                                                                                                \
    cl::Int(cl::Queue, cl::Uint, void *, const void *, size_t, cl::Uint, const cl::EventHandle *, cl::EventHandle *)) \
  X(clCreateProgramWithIL, cl::Program(cl::Context, const void *, size_t, cl::Int *))                                  \
  X(clBuildProgram, cl::Int(cl::Program, cl::Uint, const cl::DeviceId *, const char *, void (*)(cl::Program, void *),  \
                            void *))                                                                                   \
  X(clGetProgramBuildInfo, cl::Int(cl::Program, cl::DeviceId, cl::Uint, size_t, void *, size_t *))                     \
  X(clReleaseProgram, cl::Int(cl::Program))                                                                            \
  X(clCreateKernel, cl::KernelHandle(cl::Program, const char *, cl::Int *))                                            \
  X(clReleaseKernel, cl::Int(cl::KernelHandle))                                                                        \
  X(clGetKernelWorkGroupInfo, cl::Int(cl::KernelHandle, cl::DeviceId, cl::Uint, size_t, void *, size_t *))             \
  X(clSetKernelArg, cl::Int(cl::KernelHandle, cl::Uint, size_t, const void *))                                         \
  X(clSetKernelArgSVMPointer, cl::Int(cl::KernelHandle, cl::Uint, const void *))                                       \
  X(clEnqueueNDRangeKernel, cl::Int(cl::Queue, cl::KernelHandle, cl::Uint, const size_t *, const size_t *,             \
                                    const size_t *, cl::Uint, const cl::EventHandle *, cl::EventHandle *))             \
  X(clEnqueueMarkerWithWaitList, cl::Int(cl::Queue, cl::Uint, const cl::EventHandle *, cl::EventHandle *))             \
  X(clEnqueueBarrierWithWaitList, cl::Int(cl::Queue, cl::Uint, const cl::EventHandle *, cl::EventHandle *))            \
  X(clWaitForEvents, cl::Int(cl::Uint, const cl::EventHandle *))                                                       \
  X(clGetEventInfo, cl::Int(cl::EventHandle, cl::Uint, size_t, void *, size_t *))                                      \
  X(clGetEventProfilingInfo, cl::Int(cl::EventHandle, cl::Uint, size_t, void *, size_t *))                             \
  X(clReleaseEvent, cl::Int(cl::EventHandle))

struct ClApi {
  void *library = nullptr;  // the dlopen handle; never closed (devices live for the process)
  std::string path;
#define TESSERA_CL_MEMBER(name, signature) std::add_pointer_t<signature> name = nullptr;
  TESSERA_CL_FUNCTIONS(TESSERA_CL_MEMBER)
#undef TESSERA_CL_MEMBER

  // Ok for CL_SUCCESS; otherwise "<call>: CL_ERROR_NAME (-N)" with the code
  // clStatusCode gives (`fallback` for errors that say nothing more
  // specific).
  Status check(cl::Int result, const std::string &call, StatusCode fallback = StatusCode::Internal) const;
};

// "CL_INVALID_KERNEL_NAME (-46)"; "OpenCL error -9999" for a code no
// specification names.
std::string clErrorText(cl::Int result);
// The Status code of an OpenCL error: OutOfMemory for the allocation
// failures, LoadFailed for program build errors, NotFound for a missing
// kernel or device, Unavailable for a missing platform, InvalidArgument
// for a bad argument, LaunchFailed for a failed launch or event; `fallback`
// for the rest.
StatusCode clStatusCode(cl::Int result, StatusCode fallback);

// Opens the ICD loader at `path` and resolves every function; Unavailable
// (saying what to install) when the library or a function is missing. No
// OpenCL call is made.
Status openClApi(const std::string &path, std::unique_ptr<ClApi> &out);

} // namespace tessera::runtime
