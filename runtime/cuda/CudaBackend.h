// The CUDA backend: NVIDIA GPUs through the driver API, which is dlopen'ed
// (libcuda.so.1) on first use. Only the factories are public.
#pragma once

#include "runtime/Runtime.h"

#include <memory>
#include <string>

namespace tessera::runtime {

// The process-wide CUDA backend, or null when the driver library does not
// load, cuInit fails or there is no device. $TESSERA_LIBCUDA names another
// driver library (tests, unusual installs). Probed once per process.
Backend *cudaBackend();
// Why cudaBackend() is null (Ok when it is not).
Status cudaBackendStatus();

// A separate backend over the driver library at `path`, for tests: the same
// probe as cudaBackend() without touching the process-wide one.
Status openCudaBackend(const std::string &path, std::unique_ptr<Backend> &out);

} // namespace tessera::runtime
