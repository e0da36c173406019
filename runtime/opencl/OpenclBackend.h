// The OpenCL backend: any OpenCL 2.1+ device that takes SPIR-V through
// clCreateProgramWithIL and has coarse-grained SVM, running the spirv
// target's OpenCL flavour (CI runs Intel's OpenCL CPU runtime). The ICD
// loader (libOpenCL.so.1, or $TESSERA_LIBOPENCL) is dlopen'ed on first
// use; it finds drivers through OCL_ICD_VENDORS or /etc/OpenCL/vendors.
// Only the factories are public.
#pragma once

#include "runtime/Runtime.h"

#include <memory>
#include <string>

namespace tessera::runtime {

// The process-wide OpenCL backend, or null when the loader does not load,
// no platform is installed, or no device takes SPIR-V. Probed once per
// process.
Backend *openclBackend();
// Why openclBackend() is null (Ok when it is not).
Status openclBackendStatus();

// A separate backend over the loader at `path`, for tests: the same probe
// without touching the process-wide one.
Status openOpenclBackend(const std::string &path, std::unique_ptr<Backend> &out);

} // namespace tessera::runtime
