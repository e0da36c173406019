// The Level Zero backend: Intel GPUs running the spirv target's OpenCL
// flavour. The loader (libze_loader.so.1, or $TESSERA_LIBZE_LOADER) is
// dlopen'ed on first use; modules are built from SPIR-V IL, arguments set
// per launch, work goes to immediate command lists (one per stream).
// Only the factories are public.
#pragma once

#include "runtime/Runtime.h"

#include <memory>
#include <string>

namespace tessera::runtime {

// The process-wide Level Zero backend, or null when the loader does not
// load, zeInit fails (no driver) or there is no GPU. Probed once per process.
Backend *levelZeroBackend();
// Why levelZeroBackend() is null (Ok when it is not).
Status levelZeroBackendStatus();

// A separate backend over the loader at `path`, for tests: the same probe
// without touching the process-wide one.
Status openLevelZeroBackend(const std::string &path, std::unique_ptr<Backend> &out);

} // namespace tessera::runtime
