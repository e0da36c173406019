// The Level Zero backend (Intel GPUs, running the spirv target's OpenCL
// flavour): today its probe only. It loads the loader (libze_loader.so.1,
// or $TESSERA_LIBZE_LOADER) and asks for drivers and devices, so that a
// machine without them (every machine this project has run on) gets a clear
// reason; with devices it says that running kernels is not built yet.
#pragma once

#include "runtime/Runtime.h"

namespace tessera::runtime {

// Null: the backend cannot run kernels here (see levelZeroBackendStatus).
Backend *levelZeroBackend();
// Why: no loader, no driver (zeInit's result), or devices this backend cannot use yet.
Status levelZeroBackendStatus();

} // namespace tessera::runtime
