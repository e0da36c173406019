// Loading the OpenCL ICD loader with dlopen, and OpenCL's error codes as
// Status codes and text.
#include "runtime/opencl/OpenclApi.h"

#include <dlfcn.h>

namespace tessera::runtime {

namespace {

struct ErrorName {
  cl::Int code;
  const char *name;
};

// Every error code of OpenCL 3.0 (cl.h's list) and the ICD loader's own.
constexpr ErrorName kErrors[] = {
    {-1, "CL_DEVICE_NOT_FOUND"},
    {-2, "CL_DEVICE_NOT_AVAILABLE"},
    {-3, "CL_COMPILER_NOT_AVAILABLE"},
    {-4, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
    {-5, "CL_OUT_OF_RESOURCES"},
    {-6, "CL_OUT_OF_HOST_MEMORY"},
    {-7, "CL_PROFILING_INFO_NOT_AVAILABLE"},
    {-8, "CL_MEM_COPY_OVERLAP"},
    {-9, "CL_IMAGE_FORMAT_MISMATCH"},
    {-10, "CL_IMAGE_FORMAT_NOT_SUPPORTED"},
    {-11, "CL_BUILD_PROGRAM_FAILURE"},
    {-12, "CL_MAP_FAILURE"},
    {-13, "CL_MISALIGNED_SUB_BUFFER_OFFSET"},
    {-14, "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"},
    {-15, "CL_COMPILE_PROGRAM_FAILURE"},
    {-16, "CL_LINKER_NOT_AVAILABLE"},
    {-17, "CL_LINK_PROGRAM_FAILURE"},
    {-18, "CL_DEVICE_PARTITION_FAILED"},
    {-19, "CL_KERNEL_ARG_INFO_NOT_AVAILABLE"},
    {-30, "CL_INVALID_VALUE"},
    {-31, "CL_INVALID_DEVICE_TYPE"},
    {-32, "CL_INVALID_PLATFORM"},
    {-33, "CL_INVALID_DEVICE"},
    {-34, "CL_INVALID_CONTEXT"},
    {-35, "CL_INVALID_QUEUE_PROPERTIES"},
    {-36, "CL_INVALID_COMMAND_QUEUE"},
    {-37, "CL_INVALID_HOST_PTR"},
    {-38, "CL_INVALID_MEM_OBJECT"},
    {-39, "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR"},
    {-40, "CL_INVALID_IMAGE_SIZE"},
    {-41, "CL_INVALID_SAMPLER"},
    {-42, "CL_INVALID_BINARY"},
    {-43, "CL_INVALID_BUILD_OPTIONS"},
    {-44, "CL_INVALID_PROGRAM"},
    {-45, "CL_INVALID_PROGRAM_EXECUTABLE"},
    {-46, "CL_INVALID_KERNEL_NAME"},
    {-47, "CL_INVALID_KERNEL_DEFINITION"},
    {-48, "CL_INVALID_KERNEL"},
    {-49, "CL_INVALID_ARG_INDEX"},
    {-50, "CL_INVALID_ARG_VALUE"},
    {-51, "CL_INVALID_ARG_SIZE"},
    {-52, "CL_INVALID_KERNEL_ARGS"},
    {-53, "CL_INVALID_WORK_DIMENSION"},
    {-54, "CL_INVALID_WORK_GROUP_SIZE"},
    {-55, "CL_INVALID_WORK_ITEM_SIZE"},
    {-56, "CL_INVALID_GLOBAL_OFFSET"},
    {-57, "CL_INVALID_EVENT_WAIT_LIST"},
    {-58, "CL_INVALID_EVENT"},
    {-59, "CL_INVALID_OPERATION"},
    {-60, "CL_INVALID_GL_OBJECT"},
    {-61, "CL_INVALID_BUFFER_SIZE"},
    {-62, "CL_INVALID_MIP_LEVEL"},
    {-63, "CL_INVALID_GLOBAL_WORK_SIZE"},
    {-64, "CL_INVALID_PROPERTY"},
    {-65, "CL_INVALID_IMAGE_DESCRIPTOR"},
    {-66, "CL_INVALID_COMPILER_OPTIONS"},
    {-67, "CL_INVALID_LINKER_OPTIONS"},
    {-68, "CL_INVALID_DEVICE_PARTITION_COUNT"},
    {-69, "CL_INVALID_PIPE_SIZE"},
    {-70, "CL_INVALID_DEVICE_QUEUE"},
    {-71, "CL_INVALID_SPEC_ID"},
    {-72, "CL_MAX_SIZE_RESTRICTION_EXCEEDED"},
    {-1001, "CL_PLATFORM_NOT_FOUND_KHR"},
};

} // namespace

std::string clErrorText(cl::Int result) {
  for (const ErrorName &e : kErrors)
    if (e.code == result) return std::string(e.name) + " (" + std::to_string(result) + ")";
  return "OpenCL error " + std::to_string(result);
}

StatusCode clStatusCode(cl::Int result, StatusCode fallback) {
  switch (result) {
  case -4: case -5: case -6: case -61: case -72:  // allocation failures, a buffer size the device refuses
    return StatusCode::OutOfMemory;
  case -3: case -11: case -15: case -16: case -17: case -42: case -43: case -44: case -45: case -47: case -66:
  case -67:  // no compiler, a program that does not build, an unusable binary
    return StatusCode::LoadFailed;
  case -1: case -46:  // no such device, no such kernel in the program
    return StatusCode::NotFound;
  case -2: case -1001:  // the device or platform is not there
    return StatusCode::Unavailable;
  case -30: case -38: case -48: case -49: case -50: case -51: case -52: case -53: case -56: case -57: case -58:
  case -64:  // a value Tessera passed that the driver refuses
    return StatusCode::InvalidArgument;
  case -14: case -54: case -55: case -63:  // a launch the device cannot run, or work that failed before it
    return StatusCode::LaunchFailed;
  default:
    return fallback;
  }
}

Status ClApi::check(cl::Int result, const std::string &call, StatusCode fallback) const {
  if (result == cl::kSuccess) return Status::ok();
  return {clStatusCode(result, fallback), call + ": " + clErrorText(result)};
}

Status openClApi(const std::string &path, std::unique_ptr<ClApi> &out) {
  out.reset();
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *err = dlerror();
    return {StatusCode::Unavailable, "cannot load the OpenCL ICD loader " + path + " (" + (err ? err : "?") +
                                         "); install one (Debian: apt-get install ocl-icd-libopencl1) or name it "
                                         "with TESSERA_LIBOPENCL"};
  }
  auto api = std::make_unique<ClApi>();
  api->library = lib;
  api->path = path;
  std::string missing;
#define TESSERA_CL_RESOLVE(name, signature)                                                                            \
  api->name = reinterpret_cast<std::add_pointer_t<signature>>(dlsym(lib, #name));                                     \
  if (!api->name) missing += std::string(missing.empty() ? "" : ", ") + #name;
  TESSERA_CL_FUNCTIONS(TESSERA_CL_RESOLVE)
#undef TESSERA_CL_RESOLVE
  if (!missing.empty()) {
    dlclose(lib);
    return {StatusCode::Unavailable, path + " lacks OpenCL 2.1 functions Tessera needs: " + missing +
                                         " (an OpenCL 1.x loader? Debian's ocl-icd-libopencl1 has them all)"};
  }
  out = std::move(api);
  return Status::ok();
}

} // namespace tessera::runtime
