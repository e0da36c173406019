// The HIP backend: AMD GPUs through the HIP runtime, which is dlopen'ed
// (libamdhip64.so) on first use. Only the factories are public.
#pragma once

#include "runtime/Runtime.h"

#include <memory>
#include <string>

namespace tessera::runtime {

// The process-wide HIP backend, or null when the library does not load,
// hipInit fails or there is no device. $TESSERA_LIBAMDHIP64 names another
// library (tests, unusual installs). Probed once per process.
Backend *hipBackend();
// Why hipBackend() is null (Ok when it is not).
Status hipBackendStatus();

// A separate backend over the library at `path`, for tests: the same probe
// as hipBackend() without touching the process-wide one.
Status openHipBackend(const std::string &path, std::unique_ptr<Backend> &out);

} // namespace tessera::runtime
